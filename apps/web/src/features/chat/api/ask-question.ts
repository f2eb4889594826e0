import { askQuestionsResponseSchema } from '@inkwell/contract';
import { apiRequest } from '../../../lib/api-client';
import type { QuestionTarget } from '../../../lib/conversation';

export const UNEXPECTED_RESPONSE = 'Unexpected response structure from backend.';

/**
 * POST /api/askQuestions: a question about a document. A stored file is sent by `file_id` (the
 * server reads it from storage) rather than downloaded and re-uploaded; a file picked from the
 * chat's upload button is sent as it is. Spec §7: a failure is returned, not thrown.
 */
export async function askQuestion(
  target: QuestionTarget,
  text: string,
): Promise<{ response: string } | { error: string }> {
  const body = new FormData();
  if (target.file) body.append('file', target.file);
  else if (target.fileId !== undefined) body.append('file_id', String(target.fileId));
  body.append('text', text);
  try {
    const data = await apiRequest<unknown>('askQuestions', {
      method: 'POST',
      body,
      withCredentials: true,
    });
    const parsed = askQuestionsResponseSchema.safeParse(data);
    return parsed.success ? parsed.data : { error: UNEXPECTED_RESPONSE };
  } catch (err) {
    const e = err as { serverMessage?: string; message: string };
    return { error: e.serverMessage ?? e.message };
  }
}
