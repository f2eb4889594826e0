import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, openEventStream } from '../../../test/event-stream-client';
import {
  startSlowModelServer,
  type SlowCall,
  type SlowModelServer,
} from '../../../test/slow-model-server';
import {
  registerUser,
  startTestServer,
  testDialects,
  type TestServer,
} from '../../../test/test-app';
import { postForm } from '../documents/testing';

/**
 * Jobs over real HTTP on SQLite (in-process queue) and PostgreSQL (pg-boss): the endpoints answer
 * a job's result, the job can be listed, followed and cancelled by its owner only, and a job given
 * up by its process is finished by another without running its finished model calls again.
 */
const report = (marker: string, kb: number) => {
  const lines: string[] = [];
  for (let i = 0; lines.join(' ').length < kb * 1024; i++) {
    lines.push(
      `Line ${i} of the ${marker} logbook notes ${i % 11} gulls.${i % 6 === 5 ? '\n\n' : ''}`,
    );
  }
  return lines.join(' ');
};
const promptOf = (c: SlowCall) => c.body.messages.map((m) => m.content).join('\n');

interface JobView {
  id: string;
  kind: string;
  state: string;
  about: Record<string, string>;
  progress: { done: number; total: number } | null;
  result: { summary?: string } | null;
  error: { error: string; status: number } | null;
}

describe.each(testDialects())('jobs (%s)', (dialect) => {
  let model: SlowModelServer;
  let server: TestServer;
  const env = (extra: Record<string, string> = {}) => ({
    AI_BASE_URL: model.url,
    // Long enough that a heartbeat delayed by a loaded machine never hands a job that is still
    // running to the other server (the tests here hand jobs over by stopping a server, which
    // puts its jobs back at once): two runs would each complete some of the same model calls.
    JOB_STALE_MS: '15000',
    ...extra,
  });
  beforeAll(async () => {
    model = await startSlowModelServer({
      promptTokensPerSecond: 40_000,
      generatedTokensPerSecond: 800,
    });
    server = await startTestServer({ dialect, env: env() });
  });
  afterAll(async () => {
    await server?.close();
    await model?.close();
  });

  const getJob = async (s: TestServer, id: string, token?: string) => {
    const res = await s.request(`/api/jobs/${id}`, { token });
    return { status: res.status, job: (await res.json()) as JobView };
  };

  it('answers the result, and keeps the job for its owner only', async () => {
    const [owner, other] = [await registerUser(server), await registerUser(server)];
    const res = await postForm(server, '/api/summarize', owner.token, {
      file: { name: 'log.txt', bytes: report('owner', 20) },
    });
    expect(res.status).toBe(200);
    const id = res.headers.get('x-job-id')!;
    const { summary } = (await res.json()) as { summary: string };
    expect(summary.length).toBeGreaterThan(0);

    const mine = await getJob(server, id, owner.token);
    expect(mine.status).toBe(200);
    expect(mine.job).toMatchObject({
      id,
      kind: 'summarize',
      state: 'done',
      about: { file_name: 'log.txt' },
      result: { summary },
      error: null,
    });
    const list = (await (await server.request('/api/jobs', { token: owner.token })).json()) as {
      jobs: JobView[];
    };
    expect(list.jobs.map((j) => j.id)).toContain(id);
    expect((await getJob(server, id, other.token)).status).toBe(404);
    expect((await getJob(server, id)).status).toBe(404);
    const theirs = (await (await server.request('/api/jobs', { token: other.token })).json()) as {
      jobs: JobView[];
    };
    expect(theirs.jobs).toEqual([]);
    expect((await server.request('/api/jobs/not-a-job', { token: owner.token })).status).toBe(400);

    // An ended job's events: the result at once.
    const events = await fetch(`${server.url}/api/jobs/${id}/events`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    const text = await events.text();
    expect(text).toMatch(/^event: job\n/);
    expect(text).toContain(`event: done\ndata: ${JSON.stringify({ summary })}`);
  }, 60_000);

  it("answers a failed job's error with its status, and a cancelled job with 409", async () => {
    const user = await registerUser(server);
    const empty = await postForm(server, '/api/summarize', user.token, {
      file: { name: 'empty.txt', bytes: '   ' },
    });
    expect(empty.status).toBe(400);
    const failed = await getJob(server, empty.headers.get('x-job-id')!, user.token);
    expect(failed.job).toMatchObject({ state: 'failed', error: { status: 400 } });

    const stream = await openEventStream(server.url, {
      path: '/api/summarize',
      token: user.token,
      body: await multipart({}, { name: 'long.txt', bytes: Buffer.from(report('long', 120)) }),
    });
    const { id } = (await stream.waitFor((e) => e.event === 'job')).data as { id: string };
    const cancelled = await server.request(`/api/jobs/${id}`, {
      method: 'DELETE',
      token: user.token,
    });
    expect(await cancelled.json()).toMatchObject({ id, state: 'cancelled' });
    expect((await stream.waitFor((e) => e.event === 'error')).data).toEqual({
      error: 'The work was cancelled.',
      status: 409,
    });
    // Cancelling again changes nothing.
    const again = await server.request(`/api/jobs/${id}`, { method: 'DELETE', token: user.token });
    expect(await again.json()).toMatchObject({ state: 'cancelled' });
    await model.idle();
  }, 60_000);

  it('is finished by another server after its own stops, without redoing its finished parts', async () => {
    const user = await registerUser(server);
    const before = model.calls.length;
    const stream = await openEventStream(server.url, {
      path: '/api/summarize',
      token: user.token,
      body: await multipart({}, { name: 'long.txt', bytes: Buffer.from(report('resume', 160)) }),
    });
    const { id } = (await stream.waitFor((e) => e.event === 'job')).data as { id: string };
    await stream.waitFor((e) => e.event === 'progress' && (e.data as { done: number }).done >= 2);
    const first = server;
    // SQLite is one process at a time: the other server is the next start. Started beside the
    // first, it would take the job over at its start (what a single process left running is its
    // own) while the first still ran it, and both would complete some of the same calls.
    const beside = dialect === 'postgres';
    let other = beside ? await startTestServer({ dialect, env: env(), sharing: first }) : undefined;
    try {
      // The first server stops: its job goes back to the queue and the other one takes it.
      await first.stop();
      other ??= await startTestServer({ dialect, env: env(), sharing: first });
      const taker = other;
      const finished = async () => (await getJob(taker, id, user.token)).job.state;
      await expect.poll(finished, { timeout: 75_000 }).toBe('done');
      const calls = model.calls
        .slice(before)
        .filter((c) => promptOf(c).includes('resume logbook') || promptOf(c).includes('Combine'));
      const completed = calls.filter((c) => !c.aborted);
      // Every completed call's prompt was completed once: finished parts were not redone.
      const prompts = completed.map(promptOf);
      expect(new Set(prompts).size).toBe(prompts.length);
      expect(completed.length).toBeGreaterThanOrEqual(4);
    } finally {
      await other?.close();
      await first.close();
      server = await startTestServer({ dialect, env: env() });
    }
  }, 150_000);
});
