import type { EnglishDialect } from '@inkwell/contract';
import { WORKER_NICENESS, WorkerPool } from '../../../lib/worker-pool';
import { siblingModule } from '../../../lib/worker-thread';
import type { LintCall } from './harper-worker';
import type { SafeCorrections } from './safe-corrections';

/**
 * Proofreading off the event loop (Harper takes ~2 s per 100,000 characters): one worker
 * thread, so a long check never holds up another request, and Harper's ~2 s start and its
 * dictionary are paid once. Checks queue in that worker, one at a time.
 */
const pool = new WorkerPool(siblingModule('harper-worker', import.meta.url), {
  size: 1,
  niceness: WORKER_NICENESS,
});

/**
 * Harper's findings in the user's English (`auto` or none: the text's own), with the user's
 * personal words, and the text with the safe corrections applied.
 */
export const proofreadInWorker = (text: string, dialect?: EnglishDialect, words?: string[]) =>
  pool.call<SafeCorrections>({ text, dialect, words } satisfies LintCall);

/**
 * Starts the worker and Harper in it (about 2 s of one core, much more on a busy machine): at the
 * server's start, so the first proofread's findings do not wait for it.
 */
export const warmUpHarper = () => pool.call<void>({ warmUp: true });

export const closeHarperPool = () => pool.close();
