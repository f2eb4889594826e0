import {
  askFilesResponseSchema,
  type AskFilesRequest,
  type AskFilesResponse,
} from '@inkwell/contract';
import type { Parser } from '../../../lib/api-client';
import { requestWithProgress, type ProgressOptions } from '../../../lib/progress-request';
import { UNEXPECTED_RESPONSE } from './ask-question';

/** The answer across files with its sources; any other shape is reported as unexpected. */
export const askFilesAnswerParser: Parser<AskFilesResponse> = {
  parse(data) {
    const parsed = askFilesResponseSchema.safeParse(data);
    if (!parsed.success) throw new Error(UNEXPECTED_RESPONSE);
    return parsed.data;
  },
};

/**
 * POST /api/ask_files (issue 35): a question across the user's files, the whole folder when no
 * file ids are given. Run by the server as a job with its progress; failures are thrown.
 */
export function askFiles(
  text: string,
  fileIds: number[],
  progress: ProgressOptions,
): Promise<AskFilesResponse> {
  const body: AskFilesRequest = fileIds.length ? { text, file_ids: fileIds } : { text };
  return requestWithProgress(
    'ask_files',
    { method: 'POST', body, schema: askFilesAnswerParser },
    progress,
  );
}
