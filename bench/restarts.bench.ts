// PostgreSQL and Redis restarted under load (issue 36): an app server process on a private
// PostgreSQL and a private Redis (never the shared ones), 20 users uploading files one after
// another, 5 summaries running as jobs and one client on a rate-limited endpoint; then PostgreSQL
// (`pg_ctl stop -m fast`) or Redis (killed, back empty) is down for 5 s. Counts the requests that
// failed outside the outage (+2 s for the server to find the service back), the uploads answered
// as saved that are not there byte for byte, and the jobs that did not end done with their result.
// Targets: 0, 0 and 0, and the server process up throughout.
import { loadavg } from 'node:os';
import { runRestart, RECOVERY_GRACE_MS } from '../apps/server/test/restart-scenario';
import { machineLine, result } from './lib/machine';

const SETTINGS = { users: 20, jobs: 5, downMs: 5000, beforeMs: 3000, afterMs: 5000 };

async function main() {
  console.log(machineLine());
  console.log(
    `load average (1, 5, 15 min): ${loadavg()
      .map((l) => l.toFixed(1))
      .join(', ')}`,
  );
  console.log(
    `settings: ${SETTINGS.users} uploaders, ${SETTINGS.jobs} summaries, ${SETTINGS.downMs} ms down, ` +
      `${RECOVERY_GRACE_MS} ms grace after; defaults otherwise (JOB_STALE_MS 30 s, pool of 10)`,
  );
  for (const service of ['postgres', 'redis'] as const) {
    const f = await runRestart({ service, ...SETTINGS }, (line) => console.log(`  ${line}`));
    console.log(
      `${service}: ${f.uploads} uploads, ${f.uploadsFailed} failed (${JSON.stringify(f.failureStatuses)}), ` +
        `last failure ${fmt(f.lastFailureAfterBackMs)} ms after it was back, first success ` +
        `${fmt(f.firstSuccessAfterBackMs)} ms after; ${f.limited} rate-limited requests, ` +
        `${f.limitedFailed} failed; ${f.jobsActiveAtStop} jobs active at the stop, ${f.jobsDone} done`,
    );
    for (const line of [...f.failedOutsideWindow, ...f.lostUploads, ...f.fatalLines])
      console.log(`  ${line}`);
    for (const job of f.jobsNotDone)
      console.log(`  job ${job.id}: ${job.state} ${JSON.stringify(job.error)}`);
    const name = service === 'postgres' ? 'PostgreSQL restart' : 'Redis restart';
    result({
      name: `${name}: failed requests outside the outage`,
      value: f.failedOutsideWindow.length,
      unit: 'requests',
      target: '0',
      met: f.failedOutsideWindow.length === 0,
    });
    result({
      name: `${name}: uploads lost`,
      value: f.lostUploads.length,
      unit: `of ${f.uploads - f.uploadsFailed} saved`,
      target: '0',
      met: f.lostUploads.length === 0,
    });
    result({
      name: `${name}: job results lost`,
      value: f.jobsNotDone.length,
      unit: `of ${f.jobsActiveAtStop} running`,
      target: '0',
      met: f.jobsNotDone.length === 0,
    });
    result({
      name: `${name}: server process up throughout`,
      value: f.serverUp && f.fatalLines.length === 0 ? 1 : 0,
      unit: '(1 = yes)',
      target: '1',
      met: f.serverUp && f.fatalLines.length === 0,
    });
    result({
      name: `${name}: uploads refused while it was down`,
      value: f.uploadsFailed,
      unit: `of ${f.uploads}`,
    });
    if (service === 'postgres' && f.firstSuccessAfterBackMs !== null)
      result({
        name: `${name}: first upload saved after it was back`,
        value: Math.round(f.firstSuccessAfterBackMs),
        unit: 'ms',
      });
  }
}

const fmt = (v: number | null) => (v === null ? '-' : String(Math.round(v)));

await main();
