import type { QuestionTarget } from '../../../lib/conversation';

/** The document an action runs on: a stored file (by id) or a file picked from the chat. */
export type DocumentSource = QuestionTarget;

/**
 * Spec §4 downloads the stored file and re-uploads it for each analysis. We send `file_id`
 * instead: the server reads the file from storage, which saves a round trip of up to 10 MB and
 * keeps the same ownership check. A file picked from the chat is not stored, so it goes as `file`.
 */
export function documentForm(
  source: DocumentSource,
  fields: Record<string, string> = {},
): FormData {
  const body = new FormData();
  if (source.file) body.append('file', source.file);
  else if (source.fileId !== undefined) body.append('file_id', String(source.fileId));
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  return body;
}
