import { translateResponseSchema, type TranslateResponse } from '@inkwell/contract';
import { requestWithProgress, type ProgressOptions } from '../../../lib/progress-request';
import { documentForm, type DocumentSource } from './document-form';

/**
 * A stored file: POST /api/translate_stored_file (file_id, target_language). A file picked from
 * the chat: POST /api/translate (file, target_language). With its progress.
 */
export function translateDocument(
  source: DocumentSource,
  targetLanguage: string,
  progress: ProgressOptions,
): Promise<TranslateResponse> {
  return requestWithProgress(
    source.file ? 'translate' : 'translate_stored_file',
    {
      method: 'POST',
      body: documentForm(source, { target_language: targetLanguage }),
      schema: translateResponseSchema,
    },
    progress,
  );
}
