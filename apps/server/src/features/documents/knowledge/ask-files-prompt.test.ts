import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Job } from '@inkwell/contract';
import type { JobContext } from '../../jobs';
import { openEventStream } from '../../../../test/event-stream-client';
import { startOpenAITestServer, type OpenAITestServer } from '../../../../test/openai-test-server';
import { startTestServer, testDialects, type TestServer } from '../../../../test/test-app';
import { registerWithId, uploadOk } from '../../files/testing';
import { askFiles, untilIndexed } from './test-helpers';

/**
 * The prompt a question across files counts is given back exactly once, and only when the
 * question gets no answer: not at each failed run (a run cut by the database is tried again), not
 * twice, and also when the question is refused (queue full) or cancelled before it ran.
 */
const MINUTES = 'Minutes of March. The zanzibarite roof will be green.';

describe.each(testDialects())('the prompt of a question across files (%s)', (dialect) => {
  let model: OpenAITestServer;
  let server: TestServer;
  /** Errors the next runs of ask_files throw at their first step, one per run. */
  const faults: Error[] = [];

  beforeAll(async () => {
    model = await startOpenAITestServer();
    server = await startTestServer({
      dialect,
      // One question of a user runs at a time, one more may wait: the next is refused.
      env: { AI_BASE_URL: model.url, JOBS_PER_USER: '1', JOBS_QUEUED_PER_USER: '1' },
    });
    // Each run of ask_files goes through the real handler, whose progress throws the next fault.
    const kinds = server.app.jobs.kinds;
    const real = kinds.get('ask_files')!;
    const get = kinds.get.bind(kinds);
    kinds.get = (kind) =>
      kind !== 'ask_files' ? get(kind) : (ctx: JobContext) => real(withFault(ctx));
  });
  afterAll(async () => {
    await server?.close();
    await model?.close();
  });
  beforeEach(() => {
    faults.length = 0;
    model.setReply(() => 'The roof will be green [1].');
    model.setFailure({});
  });

  const withFault = (ctx: JobContext): JobContext => {
    const fault = faults.shift();
    if (!fault) return ctx;
    const progress = new Proxy(ctx.progress, {
      get: (target, key) =>
        key === 'stage'
          ? () => {
              throw fault;
            }
          : (Reflect.get(target, key, target) as unknown),
    });
    return { ...ctx, progress };
  };
  /** What a database that could not serve for a moment throws (db/transient-error.ts). */
  const transient = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

  const asker = async () => {
    const user = await registerWithId(server);
    await uploadOk(server, user.token, 'minutes.txt', MINUTES);
    await untilIndexed(server, user.token);
    return user;
  };
  const usage = async (token: string) =>
    (
      (await (await server.request('/api/chat/usage', { token })).json()) as {
        current: number;
      }
    ).current;
  const job = async (token: string, id: string) =>
    (await (await server.request(`/api/jobs/${id}`, { token })).json()) as Job;
  const untilState = async (token: string, id: string, state: Job['state']) => {
    while ((await job(token, id)).state !== state) await new Promise((r) => setTimeout(r, 20));
  };

  it('counts a question whose run was cut by the database and then answered, once', async () => {
    const a = await asker();
    expect((await askFiles(server, a.token, { text: 'zanzibarite roof?' })).status).toBe(200);
    expect(await usage(a.token)).toBe(1);
    // Cut by the database, then failing for good: given back once, not once per run.
    faults.push(transient(), new Error('the question broke'));
    expect((await askFiles(server, a.token, { text: 'zanzibarite roof?' })).status).toBe(500);
    expect(await usage(a.token)).toBe(1);
    // Cut by the database, then answered: counted.
    faults.push(transient());
    const answered = await askFiles(server, a.token, { text: 'zanzibarite roof?' });
    expect(answered.status).toBe(200);
    expect(answered.body.response).toBe('The roof will be green [1].');
    expect(await usage(a.token)).toBe(2);
  });

  it('gives the prompt back to a question refused (queue full) or cancelled while queued', async () => {
    const a = await asker();
    const ask = () =>
      openEventStream(server.url, {
        path: '/api/ask_files',
        token: a.token,
        body: { contentType: 'application/json', bytes: Buffer.from('{"text":"roof?"}') },
      });
    // The first question runs, held at the model; the second waits behind it.
    model.setFailure({ holdAfterPieces: 0 });
    const first = await ask();
    const firstId = ((await first.waitFor((e) => e.event === 'job')).data as { id: string }).id;
    await untilState(a.token, firstId, 'running');
    const second = await ask();
    const secondId = ((await second.waitFor((e) => e.event === 'job')).data as { id: string }).id;
    expect((await job(a.token, secondId)).state).toBe('queued');
    expect(await usage(a.token)).toBe(2);

    const refused = await askFiles(server, a.token, { text: 'roof?' });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toContain('JOBS_QUEUED_PER_USER');
    expect(await usage(a.token)).toBe(2);

    const cancel = await server.request(`/api/jobs/${secondId}`, {
      method: 'DELETE',
      token: a.token,
    });
    expect(((await cancel.json()) as Job).state).toBe('cancelled');
    expect(await usage(a.token)).toBe(1);
    await second.ended;

    model.releaseHeld();
    await first.waitFor((e) => e.event === 'done');
    expect(await usage(a.token)).toBe(1);
  });
});
