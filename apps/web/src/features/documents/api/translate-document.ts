import { translateResponseSchema, type TranslateResponse } from '@inkwell/contract';
import { apiRequest } from '../../../lib/api-client';
import { documentForm, type DocumentSource } from './document-form';

/**
 * A stored file: POST /api/translate_stored_file (file_id, target_language). A file picked from
 * the chat: POST /api/translate (file, target_language).
 */
export function translateDocument(
  source: DocumentSource,
  targetLanguage: string,
): Promise<TranslateResponse> {
  return apiRequest(source.file ? 'translate' : 'translate_stored_file', {
    method: 'POST',
    body: documentForm(source, { target_language: targetLanguage }),
    schema: translateResponseSchema,
  });
}
