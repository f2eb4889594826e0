import type { EnglishDialect } from '@inkwell/contract';
import { siblingModule, WORKER_NICENESS, WorkerPool } from '../../../lib/worker-pool';
import type { HarperFinding } from './harper';
import type { LintCall } from './harper-worker';

/**
 * Proofreading off the event loop (Harper takes ~2 s per 100,000 characters): one worker
 * thread, so a long check never holds up another request, and Harper's ~2 s start and its
 * dictionary are paid once. Checks queue in that worker, one at a time.
 */
const pool = new WorkerPool(siblingModule('harper-worker', import.meta.url), {
  size: 1,
  niceness: WORKER_NICENESS,
});

/** Harper's findings in the user's English (`auto` or none: the text's own). */
export const lintInWorker = (text: string, dialect?: EnglishDialect) =>
  pool.call<HarperFinding[]>({ text, dialect } satisfies LintCall);

export const closeHarperPool = () => pool.close();
