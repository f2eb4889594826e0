// A passage worker (see passage-pool.ts): keeps the passage indexes of recent files and answers
// searches against them; an index is built from the units sent with a search that missed.
import { parentPort } from 'node:worker_threads';
import { serveCalls } from '../../../lib/worker-pool';
import type { TextUnit } from '../reader';
import {
  buildPassageIndex,
  neighboursOf,
  searchPassages,
  type PassageIndex,
} from './passage-index';

export interface SearchCall {
  key: string;
  question: string;
  limit: number;
  /** The document, when the caller has read it (after a miss, or for a one-off upload). */
  units?: TextUnit[];
}

export type SearchReply =
  | { found: false }
  | {
      found: true;
      language: string;
      ranked: ReturnType<typeof searchPassages>;
      neighbours: ReturnType<typeof neighboursOf>;
    };

/** Text kept per worker: about five 10 MB files; the least recently asked go first. */
const MAX_CHARS = 64 * 1024 * 1024;
const indexes = new Map<string, PassageIndex>();
let chars = 0;

function lookUp(call: SearchCall): PassageIndex | undefined {
  let index = indexes.get(call.key);
  if (index) {
    indexes.delete(call.key); // re-inserted: the Map's order is the recency order
  } else {
    if (!call.units) return undefined;
    index = buildPassageIndex(call.units);
    chars += index.chars;
  }
  indexes.set(call.key, index);
  for (const [key, old] of indexes) {
    if (chars <= MAX_CHARS || key === call.key) break;
    indexes.delete(key);
    chars -= old.chars;
  }
  return index;
}

serveCalls(parentPort!, (call: SearchCall): SearchReply => {
  const index = lookUp(call);
  if (!index) return { found: false };
  const ranked = searchPassages(index, call.question, call.limit);
  const neighbours = ranked[0] ? neighboursOf(index, ranked[0].index) : [];
  return { found: true, language: index.language, ranked, neighbours };
});
