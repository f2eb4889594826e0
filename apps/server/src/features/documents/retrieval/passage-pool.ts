import { createHash } from 'node:crypto';
import { siblingModule, WorkerPool } from '../../../lib/worker-pool';
import { READER_VERSION, type TextUnit } from '../reader';
import type { Candidate } from './passage-index';
import type { SearchCall, SearchReply } from './passage-worker';

/**
 * Passage search off the event loop: two worker threads, each keeping the indexes of the files
 * routed to it (by key), so a file's second question only scores its terms.
 */
const pool = new WorkerPool(siblingModule('passage-worker', import.meta.url), 2);

/** Where a question's passages come from: a kept index by its key, or the text read on a miss. */
export interface PassageSource {
  key: string;
  load(): Promise<TextUnit[]>;
}

/**
 * The key of a stored file's index: a file's bytes never change, and the index is built from
 * the cached text, so it goes stale exactly when that text does (a new reader version).
 */
export const storedFileKey = (fileId: number) => `file:${fileId}:reader${READER_VERSION}`;

/** A source for text that is not a stored file (an upload): keyed by its content. */
export function unitsSource(units: TextUnit[]): PassageSource {
  const hash = createHash('sha256');
  for (const u of units) hash.update(u.label).update('\0').update(u.text).update('\0');
  return { key: `text:${hash.digest('base64url')}`, load: async () => units };
}

export interface SearchResult {
  language: string;
  ranked: Candidate[];
  neighbours: Candidate[];
}

export async function searchSource(
  source: PassageSource,
  question: string,
  limit: number,
): Promise<SearchResult> {
  const call = (units?: TextUnit[]) =>
    pool.call<SearchReply>(
      { key: source.key, question, limit, units } satisfies SearchCall,
      source.key,
    );
  let reply = await call();
  if (!reply.found) reply = await call(await source.load());
  if (!reply.found) throw new Error('the passage index could not be built');
  return reply;
}

export const closePassagePool = () => pool.close();
