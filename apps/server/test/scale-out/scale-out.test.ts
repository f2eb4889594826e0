import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMITED } from '../rate-limit';
import type { SlowModelServer } from '../slow-model-server';
import { forgetRateLimits, missingPiece, startCluster, type Cluster } from './cluster';
import { HttpClient } from './http-client';
import { clientAddresses } from './mixed-load';
import { startNodeProcess } from './node-process';
import { jobsEnv, killDuringJobs, startJobsModel } from './jobs-scenario';
import { killDuringLoad, summarize } from './scenario';

/**
 * Two app servers behind Debian's nginx (the shipped deploy/nginx.conf) on one PostgreSQL schema,
 * Redis and an S3-speaking server, as compose.yaml deploys them. Skipped, saying which piece is
 * missing, where one is; .ci/run installs them all.
 */
const missing = missingPiece();
const title = `scale-out behind nginx${missing ? ` (skipped: ${missing})` : ''}`;

describe.skipIf(missing !== undefined)(title, () => {
  let cluster: Cluster;
  let model: SlowModelServer;
  beforeAll(async () => {
    model = await startJobsModel();
    cluster = await startCluster({ apps: 2, env: jobsEnv(model.url) });
    await cluster.startWorker(/Inkwell worker is running jobs/);
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
    await model?.close();
  }, 60_000);

  it('loses no accepted upload when an app server is killed mid-load and restarts', async () => {
    const run = await killDuringLoad(cluster, {
      users: 8,
      killAfterUploads: 25,
      uploadsAfterRestart: 25,
      maxMs: 150_000,
    });
    const { load } = run;
    await forgetRateLimits(load.users.map((u) => u.client.address));
    console.log(`scale-out: ${summarize(run)}`);
    expect(run.killedAfterUploads).toBeGreaterThanOrEqual(25);
    expect(run.acceptedAfterRestart).toBeGreaterThanOrEqual(25);
    expect(load.listMisses).toBe(0);
    expect(load.downloadMisses).toBe(0);
    expect(run.lost).toEqual([]);
    // Only requests the killed server was answering may fail: a handful, not a share of the load.
    expect(load.errors).toBeLessThan(load.requests / 20);
    // No finished file without its bytes, no bytes without a row; what the kill cut short is a
    // reservation, swept (with its object, if stored) once its lease has run out.
    expect(run.afterLoad).toMatchObject({ rowsWithoutObject: 0, objectsWithoutRow: 0 });
    expect(run.sweep).toMatchObject({
      rowsRemoved: 0,
      objectsRemoved: 0,
      reservationsRemoved: run.afterLoad.pending,
    });
    expect(run.afterSweep).toMatchObject({
      finished: run.afterLoad.finished,
      pending: 0,
      objects: run.afterLoad.finished,
      rowsWithoutObject: 0,
      objectsWithoutRow: 0,
    });
  }, 240_000);

  it('finishes every job when the worker and an app server are killed mid-job, redoing no finished part', async () => {
    const run = await killDuringJobs(cluster, model, {
      users: 6,
      kb: 100,
      maxMs: 120_000,
      killApp: 1,
    });
    console.log(`scale-out jobs: ${JSON.stringify(run)}`);
    expect(run.finished).toBe(run.jobs);
    expect(run.killedJobs).toBeGreaterThanOrEqual(2);
    expect(run.resumeMs).toHaveLength(run.killedJobs);
    // A call whose answer arrived as its process died was not yet a finished part: at most one
    // per killed job is made again.
    expect(run.redoneParts).toBeLessThanOrEqual(run.killedJobs);
  }, 240_000);

  it('limits sign-in attempts per real client address, whatever X-Forwarded-For it sends', async () => {
    const [address, other] = clientAddresses(2) as [string, string];
    const limit = 10; // AUTH_RATE_LIMIT's default
    const client = new HttpClient(address);
    try {
      const login = (c: HttpClient, i: number) =>
        c.json(
          `${cluster.url}/api/login`,
          'POST',
          { email: 'nobody@example.com', password: 'wrong password' },
          { 'x-forwarded-for': `203.0.113.${i}` }, // a new made-up address each time
        );
      const statuses: number[] = [];
      for (let i = 0; i <= limit; i++) statuses.push((await login(client, i)).status);
      expect(statuses).toEqual([...Array<number>(limit).fill(401), 429]);
      const refused = await login(client, 99);
      expect(refused.status).toBe(429);
      expect(JSON.parse(refused.body.toString())).toEqual(RATE_LIMITED);
      // The servers count the address nginx saw: another client has a budget of its own.
      expect((await login(new HttpClient(other), 0)).status).toBe(401);
    } finally {
      client.close();
      await forgetRateLimits([address, other]);
    }
  }, 60_000);

  it('refuses to start on PostgreSQL without JWT_SECRET, saying so', async () => {
    const { JWT_SECRET: _, ...env } = cluster.env;
    await expect(
      startNodeProcess({
        entry: 'apps/server/src/server.ts',
        env: { ...env, PORT: '0', DATA_DIR: '/tmp/inkwell-no-secret' },
        ready: /Inkwell is running at/,
      }),
    ).rejects.toThrow(/exited \(1\)[\s\S]*JWT_SECRET: required when DATABASE_URL is set/);
  }, 60_000);
});
