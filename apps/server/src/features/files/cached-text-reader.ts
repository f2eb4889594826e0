import { readOnlyStatement } from '../../db/read-only-statements';
import type { ExtractResult } from './reader';

/** A cached text as stored (see files.service.ts cacheText): the reader's result and its version. */
export type CachedText = ExtractResult & { reader?: number };

/**
 * A file's cached text read and parsed in a CPU worker (src/cpu-tasks.ts) on the worker's own
 * read-only handle (db/read-only-statements.ts): megabytes of cached text read on the event loop
 * would hold up every request.
 */
export function readCachedText(dbFile: string, fileId: number): CachedText | undefined {
  const json = readOnlyStatement(dbFile, 'select content from file_text_cache where file_id = ?')
    .pluck()
    .get(fileId) as string | undefined;
  return json === undefined ? undefined : parseCachedText(json);
}

/** A cached text as stored, parsed. */
export const parseCachedText = (json: string) => JSON.parse(json) as CachedText;
