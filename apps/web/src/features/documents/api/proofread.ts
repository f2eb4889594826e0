import { proofreadResponseSchema, type ProofreadResponse } from '@inkwell/contract';
import { apiRequest } from '../../../lib/api-client';
import { documentForm, type DocumentSource } from './document-form';

/** POST /api/proofread. */
export function proofread(source: DocumentSource): Promise<ProofreadResponse> {
  return apiRequest('proofread', {
    method: 'POST',
    body: documentForm(source),
    schema: proofreadResponseSchema,
  });
}
