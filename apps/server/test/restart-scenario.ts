import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startPrivatePostgres, startPrivateRedis } from './private-services';
import {
  lostUploads,
  register,
  startLimitedClient,
  startSummary,
  startUploaders,
  storedFiles,
  type UploadOutcome,
} from './restart-load';
import { startNodeProcess } from './scale-out/node-process';
import { startSlowModelServer } from './slow-model-server';

/**
 * A service restarted under load (issue 36): an app server process (server.ts, as deployed) on a
 * private PostgreSQL and a private Redis, `users` users uploading files one after another, `jobs`
 * summaries running as jobs, and one client posting rate-limited requests (POST /api/logs, whose
 * counters live in Redis). Then PostgreSQL (`pg_ctl stop -m fast`: every session cut) or Redis
 * (killed; it comes back empty) is stopped, kept down `downMs`, and started again. Measured: which
 * requests failed and when (only inside the outage, plus RECOVERY_GRACE_MS for the server to find
 * the service back), whether every upload answered as saved is listed and downloads byte for
 * byte, whether every job ends done with its result, and whether the server process stayed up.
 */
export interface RestartOptions {
  service: 'postgres' | 'redis';
  users: number;
  jobs: number;
  downMs: number;
  /** Load before the outage and after the service is back. */
  beforeMs: number;
  afterMs: number;
}

export interface RestartFigures {
  uploads: number;
  uploadsFailed: number;
  /** The failed uploads' answers: status (or 'no answer') → count. */
  failureStatuses: Record<string, number>;
  /** Failed requests (uploads, rate-limited ones) answered before or sent after the window. */
  failedOutsideWindow: string[];
  /** The last failed upload's answer, in ms after the service was back (≤ 0: while down). */
  lastFailureAfterBackMs: number | null;
  /** How long after the service was back the first upload sent then succeeded. */
  firstSuccessAfterBackMs: number | null;
  /** Rate-limited requests: sent, and answered with neither 204 nor 429. */
  limited: number;
  limitedFailed: number;
  lostUploads: string[];
  /** Jobs running (or queued) when the service stopped: they must resume. */
  jobsActiveAtStop: number;
  jobsDone: number;
  jobsNotDone: { id: string; state: string; error: unknown }[];
  serverUp: boolean;
  /** The server's log lines of level fatal (an uncaught exception). */
  fatalLines: string[];
}

/** Failures answered this long after the service is back still count as the outage's. */
export const RECOVERY_GRACE_MS = 2000;

/** A logbook to summarize, different for each job (so no job reuses another's cached parts). */
const logbook = (n: number) =>
  Array.from(
    { length: 500 },
    (_, i) => `Entry ${i} of logbook ${n}: the tide turned at ${i % 12} and ${i % 7} gulls flew.`,
  ).join(' ');

export async function runRestart(
  opts: RestartOptions,
  log: (line: string) => void = () => {},
): Promise<RestartFigures> {
  const [pg, redis] = [await startPrivatePostgres(), await startPrivateRedis()];
  const model = await startSlowModelServer({
    // Slow enough that the summaries run through the outage (seconds per model call).
    promptTokensPerSecond: 5_000,
    generatedTokensPerSecond: 40,
    replyTokens: 80,
    slots: 2,
  });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'inkwell-restart-'));
  const started = await startNodeProcess({
    entry: 'apps/server/src/server.ts',
    env: {
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: pg.url,
      REDIS_URL: redis.url,
      JWT_SECRET: randomBytes(32).toString('hex'),
      DATA_DIR: dataDir,
      // Errors of requests cut by the outage are expected: fatal lines only (an uncaught exception).
      LOG_LEVEL: 'fatal',
      MODEL_DOWNLOAD: 'off',
      ANALYSIS_BROWSER: 'off',
      AI_BASE_URL: model.url,
      AUTH_RATE_LIMIT: '100000',
    },
    ready: /running at (http:\/\/[^/\s]+)/,
  });
  const server = started.process;
  const url = started.match[1]!.replace('localhost', '127.0.0.1');
  try {
    const tokens: string[] = [];
    for (let i = 0; i < opts.users; i++)
      tokens.push(await register(url, `user${i}-${randomBytes(3).toString('hex')}@example.com`));
    const ownerOf = (n: number) => tokens[n % tokens.length]!;
    const jobIds: string[] = [];
    for (let n = 0; n < opts.jobs; n++)
      jobIds.push(await startSummary(url, ownerOf(n), `logbook-${n}.txt`, logbook(n)));
    log(`${opts.users} users uploading, ${opts.jobs} summaries started`);

    const uploads = startUploaders(url, tokens);
    const limited = startLimitedClient(url);
    await sleep(opts.beforeMs);
    const before = await Promise.all(jobIds.map((id, n) => jobOf(url, ownerOf(n), id)));
    const jobsActiveAtStop = before.filter((j) => ['queued', 'running'].includes(j.state)).length;
    const downAt = performance.now();
    await (opts.service === 'postgres' ? pg.stop('fast') : redis.stop());
    await sleep(opts.downMs);
    await (opts.service === 'postgres' ? pg.start() : redis.start());
    const backAt = performance.now();
    log(`${opts.service} down ${Math.round(backAt - downAt)} ms, ${jobsActiveAtStop} jobs active`);
    await sleep(opts.afterMs);
    await Promise.all([uploads.stop(), limited.stop()]);

    const windowEnd = backAt + RECOVERY_GRACE_MS;
    const outside = (o: { sentAt: number; at: number }) => o.at < downAt || o.sentAt > windowEnd;
    const failed = uploads.outcomes.filter((o) => o.status !== 201);
    const limitedFailed = limited.outcomes.filter((o) => o.status !== 204 && o.status !== 429);
    const firstSuccess = uploads.outcomes.find((o) => o.status === 201 && o.sentAt >= backAt);

    const jobsNotDone: RestartFigures['jobsNotDone'] = [];
    for (const [n, id] of jobIds.entries()) {
      const job = await waitForEnd(url, ownerOf(n), id);
      if (job.state !== 'done' || !(job.result as { summary?: string } | null)?.summary)
        jobsNotDone.push({ id, state: job.state, error: job.error });
    }
    const stored = await Promise.all(tokens.map((t) => storedFiles(url, t)));
    const health = await fetch(`${url}/api/health`).catch(() => undefined);
    return {
      uploads: uploads.outcomes.length,
      uploadsFailed: failed.length,
      failureStatuses: countBy(failed.map((o) => String(o.status))),
      failedOutsideWindow: [
        ...failed.filter(outside).map((o) => `upload ${o.name}: ${o.status}`),
        ...limitedFailed.filter(outside).map((o) => `POST /api/logs: ${o.status}`),
      ],
      lastFailureAfterBackMs: failed.length ? Math.max(...failed.map((o) => o.at)) - backAt : null,
      firstSuccessAfterBackMs: firstSuccess ? firstSuccess.at - backAt : null,
      limited: limited.outcomes.length,
      limitedFailed: limitedFailed.length,
      lostUploads: lostUploads(uploads.outcomes, stored),
      jobsActiveAtStop,
      jobsDone: jobIds.length - jobsNotDone.length,
      jobsNotDone,
      serverUp: health?.status === 200,
      fatalLines: server
        .output()
        .split('\n')
        .filter((l) => l.includes('"level":60')),
    };
  } catch (err) {
    log(`server output:\n${server.output()}`);
    throw err;
  } finally {
    await server.kill();
    await model.close();
    await pg.close();
    await redis.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function jobOf(url: string, token: string, id: string) {
  const res = await fetch(`${url}/api/jobs/${id}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return (await res.json()) as { state: string; result: unknown; error: unknown };
}

/** The job once it has ended (or as it is after three minutes). */
async function waitForEnd(url: string, token: string, id: string) {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const job = await jobOf(url, token, id);
    if (!['queued', 'running'].includes(job.state) || Date.now() > deadline) return job;
    await sleep(250);
  }
}

const countBy = (keys: string[]) =>
  keys.reduce<Record<string, number>>((acc, k) => ({ ...acc, [k]: (acc[k] ?? 0) + 1 }), {});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export type { UploadOutcome };
