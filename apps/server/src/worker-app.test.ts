import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeProcess, type NodeProcess } from '../test/scale-out/node-process';
import { startFixtureServer, type FixtureServer } from './features/analysis/testing';

/**
 * `npm run worker` (worker.ts) as it runs in a deployment: a process of its own beside an app
 * server that runs no jobs (JOB_WORKER=off), both on one PostgreSQL schema. The worker serves its
 * health check and no API, and runs the job the app server enqueued.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('the worker process (PostgreSQL)', () => {
  const schema = `worker_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'inkwell-worker-'));
  let site: FixtureServer;
  let app: { url: string; process: NodeProcess };
  let worker: { url: string; process: NodeProcess };

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    const databaseUrl = new URL(process.env.TEST_DATABASE_URL!);
    databaseUrl.searchParams.set('options', `-c search_path=${schema}`);
    site = await startFixtureServer();
    const env = {
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl.toString(),
      JOB_QUEUE_SCHEMA: `${schema}_queue`,
      JWT_SECRET: randomBytes(32).toString('hex'),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      MODEL_DOWNLOAD: 'off',
      FETCH_ALLOW_HOSTS: '127.0.0.1',
      ANALYSIS_BROWSER: 'off',
    };
    const started = await startNodeProcess({
      entry: 'apps/server/src/server.ts',
      env: { ...env, PORT: '0', JOB_WORKER: 'off' },
      ready: /running at (http:\/\/[^/\s]+)/,
    });
    app = { url: started.match[1]!, process: started.process };
    const w = await startNodeProcess({
      entry: 'apps/server/src/worker.ts',
      env: { ...env, WORKER_PORT: '0' },
      ready: /health at port (\d+)/,
    });
    worker = { url: `http://127.0.0.1:${w.match[1]}`, process: w.process };
  }, 120_000);

  afterAll(async () => {
    await Promise.all([app?.process.kill(), worker?.process.kill()]);
    await site?.close();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.query(`drop schema if exists ${schema}_queue cascade`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers its health check and no API route', async () => {
    const health = await fetch(`${worker.url}/api/health`);
    expect(health.status).toBe(200);
    expect(((await health.json()) as { database: string }).database).toBe('ok');
    const api = await fetch(`${worker.url}/api/seo-analysis`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site.origin}/clean` }),
    });
    expect(api.status).toBe(404);
    expect((await fetch(`${worker.url}/api/files`)).status).toBe(404);
  });

  it('runs a job the app server enqueued', async () => {
    const res = await fetch(`${app.url}/api/seo-analysis`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site.origin}/defects` }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { seo_analysis: { url: string; score: number } };
    expect(body.seo_analysis.url).toBe(`${site.origin}/defects`);
    // The row names the process that ran it (`<pid>-<random>`): the worker, never the app server.
    const { rows } = await admin.query<{ worker: string; state: string }>(
      `select worker, state from ${schema}.jobs where kind = 'seo'`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.state).toBe('done');
    expect(Number(rows[0]!.worker.split('-')[0])).toBe(worker.process.pid);
  });
});
