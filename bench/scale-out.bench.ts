// Scale-out (issue 19): the harness of the scale-out test (apps/server/test/scale-out) with more
// users and uploads. Two app server processes behind Debian's nginx (deploy/nginx.conf), one
// PostgreSQL schema, Redis and s3rver; a mixed load (sign-up, sign-in, uploads, lists, downloads)
// from many loopback client addresses; once KILL_AFTER uploads were accepted, app server 1 gets
// kill -9 and starts again (its start-up sweep runs under load); the load ends AFTER_RESTART
// uploads later. Then every accepted upload is checked on both servers, and the files table
// against the bucket. Then jobs: users start summaries (one-slot slow model shared by every
// process) and hang up; the worker and an app server are killed with SIGKILL mid-job; every job
// must finish elsewhere without redoing a finished part. Needs TEST_DATABASE_URL, TEST_REDIS_URL
// and nginx.
import { loadavg } from 'node:os';
import {
  forgetRateLimits,
  missingPiece,
  startCluster,
} from '../apps/server/test/scale-out/cluster';
import {
  jobsEnv,
  killDuringJobs,
  startJobsModel,
} from '../apps/server/test/scale-out/jobs-scenario';
import { killDuringLoad, summarize } from '../apps/server/test/scale-out/scenario';
import { machineLine, result } from './lib/machine';

const USERS = Number(process.env.SCALE_OUT_USERS ?? 24);
const KILL_AFTER = Number(process.env.SCALE_OUT_KILL_AFTER ?? 200);
const AFTER_RESTART = Number(process.env.SCALE_OUT_AFTER_RESTART ?? 200);

async function main() {
  console.log(machineLine());
  const missing = missingPiece();
  if (missing) {
    console.log(`skipped: ${missing}`);
    return;
  }
  // The figures depend on what else the machine runs (its load average tells how busy it was).
  const busy = () =>
    loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
  console.log(`load average before: ${busy()}`);
  const started = performance.now();
  const model = await startJobsModel();
  const cluster = await startCluster({ apps: 2, env: jobsEnv(model.url) });
  await cluster.startWorker(/Inkwell worker is running jobs/);
  console.log(
    `cluster (2 app servers, nginx, s3rver) up in ${(performance.now() - started).toFixed(0)} ms`,
  );
  try {
    const run = await killDuringLoad(cluster, {
      users: USERS,
      killAfterUploads: KILL_AFTER,
      uploadsAfterRestart: AFTER_RESTART,
      maxMs: 300_000,
    });
    await forgetRateLimits(run.load.users.map((u) => u.client.address));
    console.log(`${USERS} users: ${summarize(run)}`);
    console.log(`load average after: ${busy()}`);
    const { load } = run;
    for (const l of run.lost) console.log(`lost upload ${l.id}: ${l.why}`);
    result({ name: 'requests through nginx', value: load.requests, unit: '' });
    result({
      name: 'errors (non-expected answers)',
      value: load.errors,
      unit: `(${Object.entries(load.errorsByStatus)
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ')})`,
    });
    result({ name: 'latency p50', value: run.p50, unit: 'ms' });
    result({ name: 'latency p99', value: run.p99, unit: 'ms' });
    result({ name: 'uploads accepted (201)', value: load.accepted.length, unit: '' });
    result({
      name: 'uploads lost',
      value: run.lost.length,
      unit: '',
      target: '0',
      met: run.lost.length === 0,
    });
    const orphans = run.afterLoad.rowsWithoutObject + run.afterLoad.objectsWithoutRow;
    result({
      name: 'rows without object + objects without row',
      value: orphans,
      unit: '',
      target: '0',
      met: orphans === 0,
    });
    result({
      name: 'restart of the killed server (to listening)',
      value: run.restartMs / 1000,
      unit: 's',
    });

    const jobs = await killDuringJobs(cluster, model, {
      users: 6,
      kb: 100,
      maxMs: 180_000,
      killApp: 1,
    });
    console.log(`jobs: ${JSON.stringify(jobs)}`);
    result({
      name: 'jobs lost (of those started, worker and app server killed mid-job)',
      value: jobs.jobs - jobs.finished,
      unit: `(of ${jobs.jobs}; ${jobs.killedJobs} were running on the killed processes)`,
      target: '0',
      met: jobs.finished === jobs.jobs,
    });
    result({
      name: 'killed job finished elsewhere (slowest, from the kill)',
      value: Math.max(...jobs.resumeMs) / 1000,
      unit: 's',
    });
    result({
      name: 'finished parts made again after the kills',
      value: jobs.redoneParts,
      unit: '',
      target: '0',
      met: jobs.redoneParts === 0,
    });
  } finally {
    await cluster.stop();
    await model.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
