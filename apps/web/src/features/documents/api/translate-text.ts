import { translateResponseSchema, type TranslateResponse } from '@inkwell/contract';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/translate with typed text (form fields). */
export function translateText(input: {
  text: string;
  targetLanguage: string;
  sourceLanguage?: string;
}): Promise<TranslateResponse> {
  const body = new FormData();
  body.append('text', input.text);
  body.append('target_language', input.targetLanguage);
  if (input.sourceLanguage) body.append('source_language', input.sourceLanguage);
  return apiRequest('translate', { method: 'POST', body, schema: translateResponseSchema });
}
