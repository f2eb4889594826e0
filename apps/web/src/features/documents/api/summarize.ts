import { summarizeResponseSchema, type SummarizeResponse } from '@inkwell/contract';
import { apiRequest } from '../../../lib/api-client';
import { documentForm, type DocumentSource } from './document-form';

/** POST /api/summarize. */
export function summarize(source: DocumentSource): Promise<SummarizeResponse> {
  return apiRequest('summarize', {
    method: 'POST',
    body: documentForm(source),
    schema: summarizeResponseSchema,
  });
}
