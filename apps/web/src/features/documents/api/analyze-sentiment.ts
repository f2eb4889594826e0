import { sentimentResponseSchema, type SentimentResponse } from '@inkwell/contract';
import { apiRequest } from '../../../lib/api-client';
import { documentForm, type DocumentSource } from './document-form';

/** POST /api/bulk-sentiment-analysis. */
export function analyzeSentiment(source: DocumentSource): Promise<SentimentResponse> {
  return apiRequest('bulk-sentiment-analysis', {
    method: 'POST',
    body: documentForm(source),
    schema: sentimentResponseSchema,
  });
}
