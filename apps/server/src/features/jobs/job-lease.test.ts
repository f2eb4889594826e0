import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobKind } from '@inkwell/contract';
import { startTestServer, testDialects, type TestServer } from '../../../test/test-app';
import { jobsRepo } from './jobs.repo';

/**
 * Issue 26: a job's lease is one claim. A process that stalls past JOB_STALE_MS has its job
 * taken over, here by itself; the stalled run then holds no lease: its result does not count,
 * it leaves the job's input alone, and the run that holds the lease finishes the job.
 */
const KIND = 'lease-test' as JobKind;

describe.each(testDialects())('a job lease is one claim (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    // Heartbeats every 6 s: the test makes the job stale itself, as a stalled process would.
    server = await startTestServer({ dialect, env: { JOB_STALE_MS: '60000' } });
  });
  const runs: { attempt: number; release: () => void; signal: AbortSignal }[] = [];
  afterAll(async () => {
    for (const run of runs) run.release();
    await server?.close();
  });

  it('a stall makes this process claim the job again; only the new run counts', async () => {
    const jobs = server.app.jobs;
    jobs.register(KIND, async ({ signal }) => {
      const attempt = runs.length + 1;
      await new Promise<void>((release) => runs.push({ attempt, release, signal }));
      return { run: attempt };
    });
    const id = await jobs.create({
      kind: KIND,
      userId: null,
      about: {},
      input: {},
      upload: Buffer.from('the input'),
    });
    await expect.poll(() => runs.length).toBe(1);

    // The stall: the heartbeat goes stale; the upkeep puts the job back, and this process,
    // the only one, claims it again while the first run still waits.
    await expect
      .poll(async () => {
        // Until the upkeep has put it back once (a heartbeat may renew it between the two).
        await server.app.db
          .updateTable('jobs')
          .set({ heartbeat_at: new Date(Date.now() - 120_000).toISOString() })
          .where('id', '=', id)
          .where('state', '=', 'running')
          .where('attempts', '=', 1)
          .execute();
        await jobs.maintain();
        return runs.length;
      })
      .toBe(2);
    // The stalled run lost its lease: it is told to stop.
    expect(runs[0]!.signal.aborted).toBe(true);

    // It finishes first anyway: its result does not count, and the input stays for run 2.
    const ended = new Promise<void>((resolve) => {
      const stop = jobs.bus.subscribe(id, (news) => {
        if (news.kind === 'ended') {
          stop();
          resolve();
        }
      });
    });
    runs[0]!.release();
    await ended;
    expect((await jobsRepo.find(server.app.db, id))!.state).toBe('running');
    expect(await streamText(jobs.readUpload(id))).toBe('the input');

    runs[1]!.release();
    const row = await jobs.watch(id, () => {});
    expect(row.state).toBe('done');
    expect(JSON.parse(row.result!)).toEqual({ run: 2 });
    expect(row.attempts).toBe(2);
  });
});

async function streamText(stream: Promise<NodeJS.ReadableStream>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString();
}
