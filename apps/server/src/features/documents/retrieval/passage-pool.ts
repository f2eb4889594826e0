import { createHash } from 'node:crypto';
import { WORKER_NICENESS, WorkerPool } from '../../../lib/worker-pool';
import { siblingModule } from '../../../lib/worker-thread';
import { READER_VERSION, type TextUnit } from '../../files';
import type { Candidate } from './passage-index';
import type { WorkProgress } from '../../ai';
import { EMBEDDING_BATCH, type Embedder } from './embeddings';
import type {
  SearchCall,
  SearchReply,
  StoredCall,
  TextsCall,
  TextsReply,
  VectorsCall,
} from './passage-worker';

/**
 * Passage search off the event loop: two worker threads, each keeping the indexes of the files
 * routed to it (by key), so a file's second question only scores its terms.
 */
const pool = new WorkerPool(siblingModule('passage-worker', import.meta.url), {
  size: 2,
  niceness: WORKER_NICENESS,
});

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

/** A search done elsewhere: a stored file's passages ranked in the database (features/documents/knowledge). */
export type PassageSearch = (question: string, limit: number) => Promise<SearchResult>;

/**
 * A question's passages from the source's kept index, built first when it is not kept. `signal`
 * (a cancelled job) is looked at before each call rather than handed to the pool: stopping a
 * running call ends its worker, and with it every file's index kept there.
 */
export async function searchSource(
  source: PassageSource,
  question: string,
  limit: number,
  query?: SearchCall['query'],
  signal?: AbortSignal,
): Promise<SearchResult & { hybrid: boolean }> {
  const call = (units?: TextUnit[]) => {
    signal?.throwIfAborted();
    return pool.call<SearchReply>(
      { op: 'search', key: source.key, question, limit, units, query } satisfies SearchCall,
      { route: source.key },
    );
  };
  let reply = await call();
  // Cancelled while its text was read: no index is built for nobody.
  if (!reply.found) reply = await call(await source.load());
  if (!reply.found) throw new Error('the passage index could not be built');
  return reply;
}

/**
 * Gives a file's passages their vectors, once per file and model (kept with its index): the
 * passages go to the embeddings model in batches, each a step of the job's progress.
 * Call after searchSource, which builds the index.
 */
export async function ensureVectors(
  source: PassageSource,
  embedder: Embedder,
  progress?: WorkProgress,
  signal?: AbortSignal,
): Promise<void> {
  const { key } = source;
  signal?.throwIfAborted();
  const reply = await pool.call<TextsReply>(
    { op: 'texts', key, model: embedder.model } satisfies TextsCall,
    { route: key },
  );
  if (!reply.found || reply.texts === null) return;
  const texts = reply.texts;
  const batches = Math.ceil(texts.length / EMBEDDING_BATCH);
  progress?.stage('reading the passages for meaning', batches);
  let vectors: Float32Array | undefined;
  let dims = 0;
  for (let b = 0; b < batches; b++) {
    const out = await embedder.embed(
      texts.slice(b * EMBEDDING_BATCH, (b + 1) * EMBEDDING_BATCH),
      signal,
    );
    dims ||= out[0]?.length ?? 0;
    vectors ??= new Float32Array(texts.length * dims);
    out.forEach((v, i) => vectors!.set(v.slice(0, dims), (b * EMBEDDING_BATCH + i) * dims));
    progress?.partDone();
  }
  if (!vectors || dims === 0) return;
  signal?.throwIfAborted();
  await pool.call(
    { op: 'vectors', key, model: embedder.model, dims, vectors } satisfies VectorsCall,
    { route: key },
  );
}

/**
 * A query of the stored search index (SQLite), run by a passage worker with its own read-only
 * handle, off the event loop: its rows, passages' texts unpacked (knowledge/stored-reads.ts).
 */
export const readStoredRows = <T>(dbFile: string, query: StoredCall['query']) =>
  pool.call<T[]>({ op: 'stored', dbFile, query } satisfies StoredCall);

export const closePassagePool = () => pool.close();
