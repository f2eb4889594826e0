import { once } from 'node:events';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobKind } from '@inkwell/contract';
import { startTestServer, type TestServer } from '../../../test/test-app';
import { answerJob, streamJob } from './job-stream';
import { jobsRepo } from './jobs.repo';

/**
 * Issue 36: a client gone before the job watcher listened for its `close` (it left while the
 * route awaited the job's creation or row) left the watcher polling the job's row until the job
 * ended, hours for a long one. Here a route waits until its client has gone, then follows a job
 * that does not end: the watch must stop at once, streamed (events) or not.
 */
const KIND = 'watch-test' as JobKind;

describe('a job watched for a client already gone', () => {
  let server: TestServer;
  let front: FastifyInstance;
  let jobId: string;
  const releases: (() => void)[] = [];
  const watches = new Map<string, Promise<unknown>>();
  const arrivals = new Map<string, () => void>();

  beforeAll(async () => {
    server = await startTestServer();
    server.app.jobs.register(KIND, () => new Promise<void>((resolve) => releases.push(resolve)));
    jobId = await server.app.jobs.create({ kind: KIND, userId: null, about: {}, input: {} });
    // A route in front of the server's jobs: it follows the job only once its client has left.
    front = Fastify();
    front.get<{ Params: { how: string } }>('/follow/:how', async (request, reply) => {
      arrivals.get(request.params.how)?.();
      await once(reply.raw, 'close');
      const watch =
        request.params.how === 'events'
          ? streamJob(server.app.jobs, reply, jobId)
          : answerJob(server.app.jobs, request, reply, jobId);
      watches.set(request.params.how, watch);
      await watch.catch(() => undefined);
      return reply;
    });
    await front.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const release of releases) release();
    await front?.close();
    await server?.close();
  });

  it.each(['events', 'answer'])('stops following it (%s)', async (how) => {
    const arrived = new Promise<void>((resolve) => arrivals.set(how, resolve));
    const client = new AbortController();
    const { port } = front.server.address() as { port: number };
    const request = fetch(`http://127.0.0.1:${port}/follow/${how}`, { signal: client.signal });
    await arrived;
    client.abort();
    await request.catch(() => undefined);
    await expect.poll(() => watches.has(how)).toBe(true);
    // Settles without the job ending (it never ends while this test runs).
    await watches.get(how)!.catch(() => undefined);
    expect((await jobsRepo.find(server.app.db, jobId))?.state).toMatch(/^(queued|running)$/);
  });
});
