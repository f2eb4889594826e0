import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, openEventStream } from '../../../test/event-stream-client';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-app';
import { cpuPool } from '../../workers/cpu-pool';

/**
 * Bulk sentiment scores in the CPU pool: a sheet of 2 M characters is seconds of VADER, which
 * held the event loop before (no other request answered meanwhile). While a worker thread scores
 * it, the server answers; cancelling the job ends that thread.
 */
const REVIEWS =
  'id,review\n' +
  Array.from(
    { length: 20_000 },
    (_, i) =>
      `${i},"Visit ${i}: the staff were lovely and helpful, but the room was cold, dirty and noisy."`,
  ).join('\n');

const scoring = () =>
  cpuPool()
    .threads()
    ['signed-in'].filter((t) => t.calls.includes('sentimentScores'))
    .map((t) => t.threadId);

describe('bulk sentiment in the CPU pool', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer();
    token = (await registerUser(server)).token;
  });
  afterAll(async () => server?.close());

  it('scores a large sheet in a worker thread while the server answers; a cancel ends it', async () => {
    const stream = await openEventStream(server.url, {
      path: '/api/bulk-sentiment-analysis',
      token,
      body: await multipart({}, { name: 'reviews.csv', bytes: Buffer.from(REVIEWS) }),
    });
    const { id } = (await stream.waitFor((e) => e.event === 'job')).data as { id: string };
    await expect.poll(scoring).toHaveLength(1);
    const [thread] = scoring();

    // Answered while the thread is still scoring: the event loop is free.
    expect((await server.request('/api/health')).status).toBe(200);
    expect(scoring()).toEqual([thread]);

    const res = await server.request(`/api/jobs/${id}`, { method: 'DELETE', token });
    expect(await res.json()).toMatchObject({ id, state: 'cancelled' });
    await expect
      .poll(() =>
        cpuPool()
          .threads()
          ['signed-in'].map((t) => t.threadId),
      )
      .not.toContain(thread);
    stream.hangUp();
  }, 120_000);
});
