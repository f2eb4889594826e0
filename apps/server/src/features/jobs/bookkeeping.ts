import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';

/** The first wait after a failed bookkeeping step; each further one doubles, up to `maxMs`. */
export const BOOKKEEPING_RETRY = { minMs: 200, maxMs: 30_000 };

export type Attempted<T> = { ok: true; value: T } | { ok: false };

/**
 * Runs one step of a job's bookkeeping (its claim, reading its row, its end) until it succeeds.
 * A full disk, an I/O error, a busy or restarting database fail the step, never the job nor the
 * process: the step is logged and tried again after a wait that grows (0.2 s doubling to 30 s),
 * so a lasting fault costs a log line and one query every 30 s, not a hot loop. Gives up only
 * when `signal` aborts (the process is stopping): then `{ ok: false }`, and whatever the step
 * held (a claimed job's lease) goes stale and is resumed by the upkeep (jobs.service.ts maintain).
 */
export async function retryBookkeeping<T>(
  step: string,
  attempt: () => Promise<T>,
  opts: { log: FastifyBaseLogger; signal: AbortSignal; jobId?: string },
): Promise<Attempted<T>> {
  for (let failures = 0; !opts.signal.aborted; failures++) {
    try {
      const value = await attempt();
      if (failures > 0)
        opts.log.info({ jobId: opts.jobId, failures }, `job bookkeeping: ${step} works again`);
      return { ok: true, value };
    } catch (err) {
      const waitMs = Math.min(BOOKKEEPING_RETRY.maxMs, BOOKKEEPING_RETRY.minMs * 2 ** failures);
      // The first failure is an error; the ones after it, while the fault lasts, warnings.
      opts.log[failures === 0 ? 'error' : 'warn'](
        { err, jobId: opts.jobId, attempt: failures + 1, waitMs },
        `job bookkeeping: ${step} failed; trying again`,
      );
      await sleep(waitMs, undefined, { signal: opts.signal }).catch(() => undefined);
    }
  }
  return { ok: false };
}
