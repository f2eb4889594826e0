import { request } from 'node:http';
import pg from 'pg';
import { startSlowModelServer, type SlowCall, type SlowModelServer } from '../slow-model-server';
import type { Cluster } from './cluster';
import { clientAddresses } from './mixed-load';
import { HttpClient, multipartFile } from './http-client';

/**
 * Summaries as jobs across the deployment: users start them through nginx and hang up; once the
 * worker and an app server each run a job with finished parts, both are killed with SIGKILL (the
 * app server is started again). Every job must still finish, on another process, without its
 * finished model calls being made again.
 */
export interface JobsRun {
  jobs: number;
  finished: number;
  /** Jobs that were running on a killed process when it was killed. */
  killedJobs: number;
  /** Milliseconds from the kill to each of those jobs being done elsewhere. */
  resumeMs: number[];
  /** Model calls of a job made again although one had already completed (target 0). */
  redoneParts: number;
  /** The processes that ran each killed job to the end (never the killed one). */
  finishedBy: string[];
  totalMs: number;
}

/** One slot with a small CPU model's costs, shared by every process (each sends one call at once). */
export function startJobsModel(): Promise<SlowModelServer> {
  return startSlowModelServer({ promptTokensPerSecond: 20_000, generatedTokensPerSecond: 400 });
}

/**
 * The deployment's settings for the jobs scenario. One job at a time per process: each of the
 * three takes one of the first jobs, so the worker and the app server to be killed both hold a
 * running job (with eight, one process could claim every job and the other would have none to lose).
 */
export const jobsEnv = (modelUrl: string) => ({
  AI_BASE_URL: modelUrl,
  AI_PARALLEL: '1',
  JOB_STALE_MS: '3000',
  JOB_CONCURRENCY: '1',
});

/** A job's id from the first event of its stream, then the connection is dropped (the job goes on). */
function startJob(
  url: string,
  address: string,
  token: string,
  form: { body: Buffer; contentType: string },
) {
  return new Promise<string>((resolve, reject) => {
    const req = request(`${url}/api/summarize`, {
      method: 'POST',
      localAddress: address,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'text/event-stream',
        'content-type': form.contentType,
        'content-length': String(form.body.length),
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      let seen = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        seen += c;
        const m = /event: job\ndata: (\{.*\})\n/.exec(seen);
        if (m) {
          resolve((JSON.parse(m[1]!) as { id: string }).id);
          req.destroy();
        }
      });
      res.on('end', () => reject(new Error(`no job event: ${res.statusCode} ${seen}`)));
    });
    req.end(form.body);
  });
}

const report = (marker: string, kb: number) => {
  const lines: string[] = [];
  for (let i = 0; lines.join(' ').length < kb * 1024; i++) {
    lines.push(
      `Entry ${i} of the ${marker} log counts ${i % 13} ships.${i % 6 === 5 ? '\n\n' : ''}`,
    );
  }
  return Buffer.from(lines.join(' '));
};

export async function killDuringJobs(
  cluster: Cluster,
  model: SlowModelServer,
  opts: { users: number; kb: number; maxMs: number; killApp: number },
): Promise<JobsRun> {
  const started = performance.now();
  const db = new pg.Client({ connectionString: cluster.databaseUrl });
  await db.connect();
  const clients = clientAddresses(opts.users).map((a) => new HttpClient(a));
  try {
    const jobs: { id: string; marker: string; token: string; client: HttpClient }[] = [];
    for (const [i, client] of clients.entries()) {
      const reg = await client.json(`${cluster.url}/api/register`, 'POST', {
        email: `jobs-${i}-${Date.now()}@example.com`,
        password: 'scale-out password',
      });
      const { access_token: token } = JSON.parse(reg.body.toString()) as { access_token: string };
      const marker = `m${i}x${Date.now().toString(36)}`;
      const form = await multipartFile(`${marker}.txt`, report(marker, opts.kb));
      jobs.push({
        id: await startJob(cluster.url, client.address, token, form),
        marker,
        token,
        client,
      });
    }

    // Which process runs which job: the row's worker is `<pid>-<random>`.
    const runningWithParts = async () =>
      (
        await db.query<{ id: string; worker: string }>(
          `select id, worker from jobs where state = 'running'
             and exists (select 1 from job_parts p where p.job_id = jobs.id)`,
        )
      ).rows.map((r) => ({ id: r.id, pid: Number(r.worker.split('-')[0]) }));
    const waitForRunning = async (pid: number) => {
      const giveUp = Date.now() + opts.maxMs;
      for (;;) {
        const mine = (await runningWithParts()).filter((r) => r.pid === pid).map((r) => r.id);
        if (mine.length || Date.now() > giveUp) return mine;
        await new Promise((r) => setTimeout(r, 50));
      }
    };

    const killed: { id: string; at: number; pid: number }[] = [];
    const worker = cluster.workers[0]!;
    for (const id of await waitForRunning(worker.pid)) killed.push({ id, at: 0, pid: worker.pid });
    await worker.kill('SIGKILL');
    const workerKilledAt = performance.now();
    killed.forEach((k) => (k.at = workerKilledAt));
    const app = cluster.apps[opts.killApp]!;
    const appJobs = await waitForRunning(app.process.pid);
    await cluster.crash(opts.killApp);
    const appKilledAt = performance.now();
    for (const id of appJobs) killed.push({ id, at: appKilledAt, pid: app.process.pid });
    await cluster.restart(opts.killApp);

    // Every job, followed through nginx by its owner.
    const doneAt = new Map<string, number>();
    const giveUp = Date.now() + opts.maxMs;
    while (doneAt.size < jobs.length && Date.now() < giveUp) {
      for (const j of jobs) {
        if (doneAt.has(j.id)) continue;
        const res = await j.client.send(`${cluster.url}/api/jobs/${j.id}`, {
          headers: { authorization: `Bearer ${j.token}` },
        });
        if (
          res.status === 200 &&
          (JSON.parse(res.body.toString()) as { state: string }).state === 'done'
        )
          doneAt.set(j.id, performance.now());
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    const finishedBy = (
      await db.query<{ worker: string }>(`select worker from jobs where id = any($1)`, [
        killed.map((k) => k.id),
      ])
    ).rows.map((r) => r.worker);

    // A part is redone when a job's prompt was completed twice.
    let redoneParts = 0;
    for (const j of jobs) {
      const prompts = model.calls
        .filter((c: SlowCall) => !c.aborted && c.endedAt !== undefined)
        .map((c) => c.body.messages.map((m) => m.content).join('\n'))
        .filter((p) => p.includes(`${j.marker} log`));
      redoneParts += prompts.length - new Set(prompts).size;
    }
    return {
      jobs: jobs.length,
      finished: doneAt.size,
      killedJobs: killed.length,
      resumeMs: killed.filter((k) => doneAt.has(k.id)).map((k) => doneAt.get(k.id)! - k.at),
      redoneParts,
      finishedBy,
      totalMs: performance.now() - started,
    };
  } finally {
    clients.forEach((c) => c.close());
    await db.end();
  }
}
