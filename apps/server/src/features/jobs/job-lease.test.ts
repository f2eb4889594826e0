import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { JobKind } from '@inkwell/contract';
import { startTestServer, testDialects, type TestServer } from '../../../test/test-app';
import { nowIso } from '../../lib/time';
import { jobsRepo } from './jobs.repo';

/**
 * Issue 26: a job's lease is one claim. A process that stalls past JOB_STALE_MS has its job
 * taken over, here by itself; the stalled run then holds no lease: its result does not count,
 * it leaves the job's input alone, and the run that holds the lease finishes the job.
 * Issue 36: the run that lost its lease was told so (aborted) before it ended, so its `finish`
 * never ran and the lease check there was never tested. The second case takes the job over from
 * another process, which this run does not hear of before it ends: its `finish` runs under the
 * lost lease and must change nothing.
 */
const KIND = 'lease-test' as JobKind;
const UNAWARE = 'lease-unaware-test' as JobKind;

describe.each(testDialects())('a job lease is one claim (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    // Heartbeats every 60 s: the test makes the job stale itself, as a stalled process would, and
    // no heartbeat tells the second case's run of the takeover before it ends.
    server = await startTestServer({ dialect, env: { JOB_STALE_MS: '600000' } });
  });
  const runs: { attempt: number; release: () => void; signal: AbortSignal }[] = [];
  afterEach(() => vi.restoreAllMocks());
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
          .set({ heartbeat_at: new Date(Date.now() - 2 * 600_000).toISOString() })
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
  it('a run whose job another process took over reaches its end, which changes nothing', async () => {
    const jobs = server.app.jobs;
    const { db } = server.app;
    let release!: () => void;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    jobs.register(UNAWARE, async () => {
      started();
      await new Promise<void>((resolve) => (release = resolve));
      return { by: 'this process' };
    });
    const finish = vi.spyOn(jobsRepo, 'finish');
    const id = await jobs.create({
      kind: UNAWARE,
      userId: null,
      about: {},
      input: {},
      upload: Buffer.from('the input'),
    });
    await running;

    // Another process finds the job silent and claims it, as its upkeep and its queue would (one
    // transaction, so this process's own queue cannot claim it in between).
    const theirs = await db.transaction().execute(async (trx) => {
      await jobsRepo.requeueStale(trx, new Date(Date.now() + 60_000).toISOString(), nowIso());
      return jobsRepo.claim(trx, id, 'another-process', nowIso());
    });
    expect(theirs).toEqual({ worker: 'another-process', attempt: 2 });

    // This run ends unaware: its finish runs, under its own lease, and is refused.
    release();
    await expect.poll(() => finish.mock.calls.length).toBe(1);
    expect(finish.mock.calls[0]![2]).toEqual({ worker: jobs.workerId, attempt: 1 });
    expect(await finish.mock.results[0]!.value).toBe(false);
    const row = (await jobsRepo.find(db, id))!;
    expect(row).toMatchObject({ state: 'running', worker: 'another-process', attempts: 2 });
    expect(row.result).toBeNull();
    // Its input stays for the run that holds the lease.
    expect(await streamText(jobs.readUpload(id))).toBe('the input');

    // The other process's end counts.
    const now = nowIso();
    const ended = await jobsRepo.finish(db, id, theirs!, {
      state: 'done',
      result: JSON.stringify({ by: 'another process' }),
      now,
      expiresAt: now,
    });
    expect(ended).toBe(true);
    expect(JSON.parse((await jobsRepo.find(db, id))!.result!)).toEqual({ by: 'another process' });
  });
});

async function streamText(stream: Promise<NodeJS.ReadableStream>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString();
}
