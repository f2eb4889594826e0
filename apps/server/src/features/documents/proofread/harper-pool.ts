import type { EnglishDialect } from '@inkwell/contract';
import { HttpError } from '../../../lib/http-error';
import { WORKER_NICENESS, WorkerPool } from '../../../lib/worker-pool';
import { siblingModule } from '../../../lib/worker-thread';
import type { LintCall } from './harper-worker';
import type { SafeCorrections } from './safe-corrections';

/**
 * Proofreading off the event loop (Harper takes ~2 s per 100,000 characters): one worker
 * thread, so a long check never holds up another request, and Harper's ~2 s start and its
 * dictionary are paid once. Checks wait their turn in the pool, not in the worker, so a cancelled
 * proofread's check leaves the queue; a running one ends its worker (the next check starts
 * another, and Harper again: cheaper than a check nobody will read holding everyone's).
 */
const pool = new WorkerPool(siblingModule('harper-worker', import.meta.url), {
  size: 1,
  callsPerWorker: 1,
  niceness: WORKER_NICENESS,
  // Niced: on a busy machine a check waits for a core, and its limit counts the CPU it used.
  timeLimitCounts: 'cpu',
  failure: (f) =>
    f.kind === 'timed out'
      ? new HttpError(504, 'Proofreading took longer than its limit and was stopped.')
      : new Error(
          f.kind === 'exited' ? `the proofreader stopped (exit code ${f.exitCode})` : f.message,
        ),
});

/**
 * A check's time limit, in CPU time: texts are cut at PROOFREAD_MAX_CHARS (~2 s, Harper's start
 * included), so only a runaway check reaches it, and it no longer keeps the only worker.
 */
const CHECK_LIMIT_MS = 60_000;

/**
 * Harper's findings in the user's English (`auto` or none: the text's own), with the user's
 * personal words, and the text with the safe corrections applied. `signal` (a cancelled job)
 * stops the check, waiting or running.
 */
export const proofreadInWorker = (
  text: string,
  dialect?: EnglishDialect,
  words?: string[],
  signal?: AbortSignal,
) =>
  pool.call<SafeCorrections>({ text, dialect, words } satisfies LintCall, {
    timeoutMs: CHECK_LIMIT_MS,
    label: 'proofread',
    ...(signal && { signal }),
  });

/**
 * Starts the worker and Harper in it (about 2 s of one core, much more on a busy machine): at the
 * server's start, so the first proofread's findings do not wait for it.
 */
export const warmUpHarper = () => pool.call<void>({ warmUp: true });

export const closeHarperPool = () => pool.close();
