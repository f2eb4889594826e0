import type { FilesQuestionState } from '../../../lib/files-question';

/** The id of the scope's text: the message field is described by it while Ask my files is on. */
export const SCOPE_ID = 'ask-files-scope';

/** What "Ask my files" asks, said in the input bar and its placeholder. */
export function scopeText({ picked }: FilesQuestionState): string {
  if (picked.length === 0) return 'Asking all your files';
  return picked.length === 1 ? 'Asking 1 picked file' : `Asking ${picked.length} picked files`;
}
