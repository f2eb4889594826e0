import { askQuestionsResponseSchema, type AskQuestionsResponse } from '@inkwell/contract';
import type { Parser } from '../../../lib/api-client';
import type { QuestionTarget } from '../../../lib/conversation';
import { requestWithProgress, type ProgressOptions } from '../../../lib/progress-request';

export const UNEXPECTED_RESPONSE = 'Unexpected response structure from backend.';

/** The answer as spec §7 has it; any other shape is reported as unexpected, not shown. */
export const askAnswerParser: Parser<AskQuestionsResponse> = {
  parse(data) {
    const parsed = askQuestionsResponseSchema.safeParse(data);
    if (!parsed.success) throw new Error(UNEXPECTED_RESPONSE);
    return parsed.data;
  },
};

/**
 * POST /api/askQuestions: a question about a document, run by the server as a job with its
 * progress (the answer comes back after a reload too). A stored file is sent by `file_id` (the
 * server reads it from storage) rather than downloaded and re-uploaded; a file picked from the
 * chat's upload button is sent as it is. Failures are thrown (the caller posts them).
 */
export function askQuestion(
  target: QuestionTarget,
  text: string,
  progress: ProgressOptions,
): Promise<AskQuestionsResponse> {
  const body = new FormData();
  if (target.file) body.append('file', target.file);
  else if (target.fileId !== undefined) body.append('file_id', String(target.fileId));
  body.append('text', text);
  return requestWithProgress(
    'askQuestions',
    { method: 'POST', body, withCredentials: true, schema: askAnswerParser },
    progress,
  );
}
