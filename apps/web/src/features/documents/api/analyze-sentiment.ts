import { sentimentResponseSchema, type SentimentResponse } from '@inkwell/contract';
import { requestWithProgress, type ProgressOptions } from '../../../lib/progress-request';
import { documentForm, type DocumentSource } from './document-form';

/** POST /api/bulk-sentiment-analysis, with its progress; `column` names the table column to score. */
export function analyzeSentiment(
  source: DocumentSource,
  progress: ProgressOptions,
  column?: string,
): Promise<SentimentResponse> {
  return requestWithProgress(
    'bulk-sentiment-analysis',
    {
      method: 'POST',
      body: documentForm(source, column === undefined ? {} : { column }),
      schema: sentimentResponseSchema,
    },
    progress,
  );
}
