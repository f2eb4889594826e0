import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlowModelServer } from '../../../test/slow-model-server';
import { registerUser, testDialects, type TestServer } from '../../../test/test-app';
import { postForm } from '../documents/testing';
import { jobsRepo } from './jobs.repo';
import { startServerWithModel, stopServerWithModel } from './jobs.test-helper';

/**
 * Turns and caps of jobs over real HTTP, on SQLite (in-process queue) and PostgreSQL (pg-boss):
 * one user's queued jobs do not hold back another's, and beyond JOBS_QUEUED_PER_USER waiting a
 * job is refused with a 429 that says how many wait, and nothing of it is stored.
 * One place to run jobs (JOB_CONCURRENCY=1): the place a job leaves goes to the owner served
 * least recently, which first come first served would give to the older job (issue 36: with
 * eight places, another user's job started at once whatever the order, so FIFO passed too).
 */
const doc = (marker: string) =>
  Array.from({ length: 200 }, (_, i) => `Line ${i} of the ${marker} notes.`).join(' ');

interface JobList {
  jobs: { id: string; state: string; about: { file_name?: string } }[];
}

describe.each(testDialects())('job turns and caps over HTTP (%s)', (dialect) => {
  let model: SlowModelServer;
  let server: TestServer;
  beforeAll(async () => {
    ({ model, server } = await startServerWithModel(dialect, {
      JOB_CONCURRENCY: '1',
      JOBS_PER_USER: '1',
      JOBS_QUEUED_PER_USER: '1',
    }));
  });
  afterAll(() => stopServerWithModel({ model, server }));

  const jobsOf = async (token: string) =>
    ((await (await server.request('/api/jobs', { token })).json()) as JobList).jobs;
  const states = async (token: string) =>
    Object.fromEntries((await jobsOf(token)).map((j) => [j.about.file_name, j.state]));

  it("starts another user's job before the first user's queued ones, and caps what waits", async () => {
    const [a, b] = [await registerUser(server), await registerUser(server)];
    const release = model.hold();
    const summarize = (token: string, name: string) =>
      postForm(server, '/api/summarize', token, { file: { name, bytes: doc(name) } });
    const a1 = summarize(a.token, 'a1.txt');
    await expect.poll(() => states(a.token), { timeout: 20_000 }).toEqual({ 'a1.txt': 'running' });
    const a2 = summarize(a.token, 'a2.txt');
    await expect
      .poll(() => states(a.token), { timeout: 20_000 })
      .toEqual({
        'a1.txt': 'running',
        'a2.txt': 'queued',
      });

    // A third waiting job is one too many: refused, and nothing of it is kept.
    const refused = await summarize(a.token, 'a3.txt');
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      error: expect.stringMatching(/^You have 1 jobs waiting to start.*JOBS_QUEUED_PER_USER/),
    });
    expect((await jobsOf(a.token)).map((j) => j.about.file_name).sort()).toEqual([
      'a1.txt',
      'a2.txt',
    ]);

    // Another user's job waits for the one place, behind a2 in time.
    const b1 = summarize(b.token, 'b1.txt');
    await expect.poll(() => states(b.token), { timeout: 20_000 }).toEqual({ 'b1.txt': 'queued' });
    expect(await states(a.token)).toEqual({ 'a1.txt': 'running', 'a2.txt': 'queued' });

    release();
    const done = await Promise.all([a1, a2, b1]);
    expect(done.map((r) => r.status)).toEqual([200, 200, 200]);
    await model.idle();
    // The place a1 left went to b1 (its owner never served), then a2's turn came.
    const [startedA2, startedB1] = await Promise.all(
      [done[1]!, done[2]!].map(
        async (r) => (await jobsRepo.find(server.app.db, r.headers.get('x-job-id')!))!.started_at!,
      ),
    );
    expect(startedB1! < startedA2!).toBe(true);
  }, 90_000);
});
