import type { LlamaContextSequence } from 'node-llama-cpp';
import type { ReadyEngine } from './llama-state';

/**
 * Which free sequence a call would like: its owner's interrupted work (resumed), then one that
 * holds just its system message, then an empty one (both need no cut), then any other, then one
 * holding the people's (chat) system message — kept for chats, which then skip evaluating it —
 * and last another owner's kept work.
 */
export function sequenceScore(
  ready: ReadyEngine,
  s: LlamaContextSequence,
  owner: string | undefined,
  system: string | undefined,
  peopleSystem: string | undefined,
): number {
  if (ready.kept.resumes(s, owner, system)) return 5;
  if (ready.kept.has(s)) return 0;
  if (ready.prefix.holds(s, system)) return 4;
  if (s.nextTokenIndex === 0) return 3;
  return ready.prefix.holds(s, peopleSystem) ? 1 : 2;
}
