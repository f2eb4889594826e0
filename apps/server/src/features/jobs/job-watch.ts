import type { ProgressEvent } from '@inkwell/contract';
import type { Db } from '../../db/database';
import type { JobBus } from './job-bus';
import { jobsRepo, type JobRow } from './jobs.repo';

/**
 * Follows one job until it ends, wherever it runs: news from this process's bus at once, and a
 * look at the job's row every `pollMs` for jobs run by another process (whose heartbeat saves
 * their progress). Resolves with the ended row; rejects when `signal` aborts (the client left).
 */
export interface WatchDeps {
  db: Db;
  bus: JobBus;
  pollMs: number;
}

const ENDED = new Set(['done', 'failed', 'cancelled']);
export const hasEnded = (row: Pick<JobRow, 'state'>) => ENDED.has(row.state);

export function watchJob(
  deps: WatchDeps,
  jobId: string,
  onProgress: (progress: ProgressEvent) => void,
  signal?: AbortSignal,
): Promise<JobRow> {
  return new Promise<JobRow>((resolve, reject) => {
    let lastProgress = '';
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      unsubscribe();
      signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    let lastNewsAt = -Infinity;
    const report = (progress: ProgressEvent) => {
      const text = JSON.stringify(progress);
      if (text === lastProgress) return;
      lastProgress = text;
      onProgress(progress);
    };
    // One look at a time; news that the job ended during a look asks for another right after.
    let looking = false;
    let again = false;
    const look = async () => {
      if (looking) {
        again = true;
        return;
      }
      looking = true;
      clearTimeout(timer);
      try {
        const row = await jobsRepo.find(deps.db, jobId);
        if (!row) return finish(() => reject(new Error(`job ${jobId} is gone`)));
        // The row's progress is the last heartbeat's: older than news the bus brought meanwhile
        // (a reader would see a step done go back), so it only stands in while no news comes.
        if (row.progress && Date.now() - lastNewsAt > 2 * deps.pollMs)
          report(JSON.parse(row.progress) as ProgressEvent);
        if (hasEnded(row)) return finish(() => resolve(row));
      } catch {
        // The next look tries again.
      } finally {
        looking = false;
      }
      if (settled) return;
      if (again) {
        again = false;
        void look();
      } else timer = setTimeout(() => void look(), deps.pollMs);
    };
    const unsubscribe = deps.bus.subscribe(jobId, (news) => {
      if (news.kind === 'progress') {
        lastNewsAt = Date.now();
        report(news.progress);
      } else void look();
    });
    const onAbort = () => finish(() => reject(signal?.reason));
    // Already aborted (the client left before the watch began): no look, no poll.
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    void look();
  });
}
