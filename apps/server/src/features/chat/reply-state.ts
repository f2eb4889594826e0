import type { ChatMessageState } from '../../db/schema';

/**
 * How a stored message reads now: a reply whose process stopped saving it (a crash) for longer
 * than `staleMs` is stopped, with the text it had; 'stopping' is still streaming until its
 * process has stopped it.
 */
export function replyState(
  row: { state: ChatMessageState; updated_at: string | null },
  staleMs: number,
  now = Date.now(),
): 'streaming' | 'done' | 'stopped' {
  if (row.state === 'done' || row.state === 'stopped') return row.state;
  const last = row.updated_at ? Date.parse(row.updated_at) : 0;
  return now - last > staleMs ? 'stopped' : 'streaming';
}
