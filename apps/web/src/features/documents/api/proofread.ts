import { proofreadResponseSchema, type ProofreadResponse } from '@inkwell/contract';
import { requestWithProgress, type ProgressOptions } from '../../../lib/progress-request';
import { documentForm, type DocumentSource } from './document-form';

/** POST /api/proofread, with its progress. */
export function proofread(
  source: DocumentSource,
  progress: ProgressOptions,
): Promise<ProofreadResponse> {
  return requestWithProgress(
    'proofread',
    { method: 'POST', body: documentForm(source), schema: proofreadResponseSchema },
    progress,
  );
}
