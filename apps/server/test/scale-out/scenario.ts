import type { Cluster } from './cluster';
import { percentile, runMixedLoad, type LoadResult } from './mixed-load';
import { lostUploads, storeState, sweepOnceLeaseRanOut } from './verify';

export interface ScaleOutRun {
  load: LoadResult;
  /** Uploads answered 201 that are not listed or do not download whole from every app server. */
  lost: Awaited<ReturnType<typeof lostUploads>>;
  /** The files table and the bucket right after the load, and after the late sweep. */
  afterLoad: Awaited<ReturnType<typeof storeState>>;
  sweep: Awaited<ReturnType<typeof sweepOnceLeaseRanOut>>;
  afterSweep: Awaited<ReturnType<typeof storeState>>;
  /** Uploads accepted when app server 1 was killed, and how long its restart took (ms). */
  killedAfterUploads: number;
  restartMs: number;
  /** Uploads accepted once it served again. */
  acceptedAfterRestart: number;
  p50: number;
  p99: number;
}

/**
 * Mixed load through nginx; once `killAfterUploads` uploads were accepted, app server 1 is killed
 * with SIGKILL and started again at once, so its start-up sweep runs while the other server is
 * under load. Then every accepted upload is checked on every app server, and the table and the
 * bucket are compared, before and after the sweep a later start-up would run.
 */
export async function killDuringLoad(
  cluster: Cluster,
  opts: {
    users: number;
    /** The kill comes once this many uploads were accepted… */
    killAfterUploads: number;
    /** …and the load ends once this many more were, after the restart. */
    uploadsAfterRestart: number;
    /** A fuse: the load ends after this long in any case (the checks then tell what happened). */
    maxMs: number;
  },
): Promise<ScaleOutRun> {
  let killedAfterUploads = 0;
  let restartMs = 0;
  let acceptedAtRestart = Infinity;
  const load = await runMixedLoad({
    url: cluster.url,
    users: opts.users,
    maxMs: opts.maxMs,
    until: (live) => live.accepted.length >= acceptedAtRestart + opts.uploadsAfterRestart,
    async during(live) {
      const giveUp = Date.now() + opts.maxMs; // never waits past the load's end
      while (live.accepted.length < opts.killAfterUploads && Date.now() < giveUp)
        await new Promise((r) => setTimeout(r, 20));
      killedAfterUploads = live.accepted.length;
      await cluster.crash(0);
      const started = performance.now();
      await cluster.restart(0);
      restartMs = performance.now() - started;
      acceptedAtRestart = live.accepted.length;
    },
  });
  const lost = await lostUploads(cluster, load);
  const afterLoad = await storeState(cluster);
  const sweep = await sweepOnceLeaseRanOut(cluster);
  const afterSweep = await storeState(cluster);
  return {
    load,
    lost,
    afterLoad,
    sweep,
    afterSweep,
    killedAfterUploads,
    restartMs,
    acceptedAfterRestart: load.accepted.length - acceptedAtRestart,
    p50: percentile(load.latencies, 50),
    p99: percentile(load.latencies, 99),
  };
}

/** One line of a run's figures, for a failure message or a benchmark's log. */
export function summarize(run: ScaleOutRun): string {
  const { load } = run;
  return [
    `${load.requests} requests, ${load.errors} errors ${JSON.stringify(load.errorsByStatus)}`,
    `p50 ${run.p50.toFixed(0)} ms, p99 ${run.p99.toFixed(0)} ms`,
    `${load.accepted.length} uploads accepted (kill after ${run.killedAfterUploads}, ` +
      `${run.acceptedAfterRestart} after the restart, which took ${run.restartMs.toFixed(0)} ms)`,
    `lost ${run.lost.length}, list misses ${load.listMisses}, download misses ${load.downloadMisses}`,
    `after the load ${JSON.stringify(run.afterLoad)}, late sweep ${JSON.stringify(run.sweep)}`,
  ].join('; ');
}
