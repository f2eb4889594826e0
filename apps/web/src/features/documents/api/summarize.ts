import { summarizeResponseSchema, type SummarizeResponse } from '@inkwell/contract';
import { requestWithProgress, type ProgressOptions } from '../../../lib/progress-request';
import { documentForm, type DocumentSource } from './document-form';

/** POST /api/summarize, with its progress. */
export function summarize(
  source: DocumentSource,
  progress: ProgressOptions,
): Promise<SummarizeResponse> {
  return requestWithProgress(
    'summarize',
    { method: 'POST', body: documentForm(source), schema: summarizeResponseSchema },
    progress,
  );
}
