import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import type { FixtureCall } from './worker-pool.fixture';
import { CPU_LIMIT_WALL_CAP, WorkerPool } from './worker-pool';
import { siblingModule } from './worker-thread';

const fixture = siblingModule('worker-pool.fixture', import.meta.url);

describe('WorkerPool', () => {
  const pool = new WorkerPool(fixture, { size: 1 });
  afterAll(() => pool.close());
  const call = (c: FixtureCall) => pool.call<string>(c);
  const slot = () => (pool as unknown as { slots: { worker?: Worker }[] }).slots[0]!;

  it('survives a worker that fails while idle, and starts a new one for the next call', async () => {
    expect(await call({ op: 'echo', value: 'first' })).toBe('first');
    // The answer and the worker's error travel on different channels: which reaches the pool
    // first is not fixed, so the call may end either way. What matters is what follows.
    const answered = await call({ op: 'crashAfter' }).catch((err: Error) => err.message);
    expect(['answered', 'a stray error after the answer']).toContain(answered);
    // The idle worker's error must be the pool's to handle: unhandled, it ends the server.
    await expect.poll(() => slot().worker, { timeout: 30_000 }).toBeUndefined();
    expect(await call({ op: 'echo', value: 'after' })).toBe('after');
    expect(pool.started).toBe(2);
  }, 60_000);
});

describe.runIf(process.platform === 'linux')('WorkerPool: niced workers', () => {
  const pool = new WorkerPool(fixture, { size: 1, niceness: 10 });
  afterAll(() => pool.close());

  it("loads its module at the server's priority and runs every call niced", async () => {
    // The load is on a person's way (their first task waits for it); the calls are background.
    expect(await pool.call({ op: 'niceness' } satisfies FixtureCall)).toEqual({
      atLoad: getPriority(),
      now: 10,
    });
  });
});

/**
 * A call that cannot end by itself (its thread waits on a flag nobody sets) is stopped for real:
 * by its time limit or by its signal, its worker thread ends (its id leaves `threads()` once the
 * thread has exited) and the next call gets a new worker.
 */
describe('WorkerPool: time limits and cancel', () => {
  const pool = new WorkerPool(fixture, { size: 1, callsPerWorker: 1 });
  afterAll(() => pool.close());
  const blocked = () => ({ op: 'block', flag: new SharedArrayBuffer(4) }) satisfies FixtureCall;
  const ids = () => pool.threads().map((t) => t.threadId);
  /** The thread running the labelled call, once it runs. */
  const runningThread = async (label: string) => {
    await expect
      .poll(() => pool.threads().find((t) => t.calls.includes(label)), { timeout: 30_000 })
      .toBeDefined();
    return pool.threads().find((t) => t.calls.includes(label))!.threadId;
  };

  it('ends a call past its time limit with its worker, and serves the next call', async () => {
    // A warm worker first, so the limit measures the call and not the thread's start.
    expect(await pool.call({ op: 'echo', value: 'warm' }, { label: 'warm' })).toBe('warm');
    const [warm] = ids();
    const late = pool.call(blocked(), { timeoutMs: 300, label: 'blocked' });
    await expect(late).rejects.toThrow('a worker took too long');
    await expect.poll(ids, { timeout: 30_000 }).not.toContain(warm);
    expect(await pool.call({ op: 'echo', value: 'next' })).toBe('next');
    expect(ids()).toHaveLength(1);
    expect(ids()).not.toContain(warm);
  }, 60_000);

  it('stops a running call by its signal: its thread is gone, the next call runs', async () => {
    const stop = new AbortController();
    const running = pool.call(blocked(), { signal: stop.signal, label: 'cancel me' });
    // A second call waits behind it (one call per worker), and is cancelled while it waits.
    const waitingStop = new AbortController();
    const waiting = pool.call(blocked(), { signal: waitingStop.signal, label: 'waiting' });
    const thread = await runningThread('cancel me');
    waitingStop.abort(new Error('no longer wanted'));
    await expect(waiting).rejects.toThrow('no longer wanted');
    expect(pool.threads().find((t) => t.threadId === thread)!.calls).toEqual(['cancel me']);

    stop.abort(new Error('cancelled'));
    await expect(running).rejects.toThrow('cancelled');
    await expect.poll(ids, { timeout: 30_000 }).not.toContain(thread);
    const started = pool.started;
    expect(await pool.call({ op: 'echo', value: 'after' })).toBe('after');
    expect(pool.started).toBe(started + 1);
    // A signal aborted before the call never starts one.
    const gone = new AbortController();
    gone.abort(new Error('too late'));
    await expect(pool.call({ op: 'echo', value: 'x' }, { signal: gone.signal })).rejects.toThrow(
      'too late',
    );
    expect(pool.started).toBe(started + 1);
  }, 60_000);
});

/**
 * A niced pool's limits count CPU time: a call waiting for a core (here: holding its thread
 * without using the CPU) is not a runaway input, one that burns its limit's worth is; one that
 * never uses the CPU still ends at the wall-clock cap.
 */
describe.runIf(process.platform === 'linux')('WorkerPool: time limits in CPU time', () => {
  const pool = new WorkerPool(fixture, { size: 1, callsPerWorker: 1, timeLimitCounts: 'cpu' });
  afterAll(() => pool.close());
  const LIMIT_MS = 200;

  it('lets a call that waits past its limit without the CPU finish; ends one that spins', async () => {
    expect(await pool.call({ op: 'echo', value: 'warm' })).toBe('warm');
    const flag = new SharedArrayBuffer(4);
    const waiting = pool.call<string>({ op: 'block', flag }, { timeoutMs: LIMIT_MS });
    // Three limits of wall time, no CPU used: still running, then released by the test.
    await new Promise((r) => setTimeout(r, LIMIT_MS * 3));
    Atomics.store(new Int32Array(flag), 0, 1);
    Atomics.notify(new Int32Array(flag), 0);
    expect(await waiting).toBe('released');

    const started = Date.now();
    const spinning = pool.call({ op: 'spin', ms: 30_000 }, { timeoutMs: LIMIT_MS });
    await expect(spinning).rejects.toThrow('a worker took too long');
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await pool.call({ op: 'echo', value: 'next' })).toBe('next');
  }, 60_000);

  it('ends a call that never uses the CPU at the wall-clock cap', async () => {
    const started = Date.now();
    const stuck = pool.call(
      { op: 'block', flag: new SharedArrayBuffer(4) },
      { timeoutMs: LIMIT_MS },
    );
    await expect(stuck).rejects.toThrow('a worker took too long');
    expect(Date.now() - started).toBeGreaterThanOrEqual(LIMIT_MS * CPU_LIMIT_WALL_CAP - 5);
  }, 60_000);
});

/**
 * With one call per worker, a call goes to a loaded worker only: it waits for whichever comes
 * first, a busy worker ending its call or a worker started for it loading. Handed to a worker
 * just started, a person's docx preview waited over 10 s for its load on a busy machine while
 * the other worker ended its index computation in milliseconds.
 */
describe('WorkerPool: calls wait for a loaded worker', () => {
  const pool = new WorkerPool(fixture, { size: 2, callsPerWorker: 1 });
  const dir = mkdtempSync(path.join(tmpdir(), 'inkwell-pool-'));
  const held = path.join(dir, 'hold');
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    delete process.env.WORKER_POOL_FIXTURE_HOLD;
    await pool.close();
  });

  it('runs a call on the busy loaded worker once it is free, not on one still loading', async () => {
    const flag = new SharedArrayBuffer(4);
    const first = pool.call({ op: 'block', flag } satisfies FixtureCall);
    await expect.poll(() => pool.threads()[0]?.calls.length, { timeout: 30_000 }).toBe(1);
    const loaded = pool.threads()[0]!.threadId;
    // Workers started from now on do not finish loading until the file is gone.
    writeFileSync(held, '');
    process.env.WORKER_POOL_FIXTURE_HOLD = held;
    const second = pool.call<number>({ op: 'thread' } satisfies FixtureCall);
    // A second worker is started for it (it may be needed), and stays loading.
    await expect.poll(() => pool.started, { timeout: 30_000 }).toBe(2);
    Atomics.store(new Int32Array(flag), 0, 1);
    Atomics.notify(new Int32Array(flag), 0);
    expect(await first).toBe('released');
    expect(await second).toBe(loaded);
    rmSync(held);
  }, 60_000);

  it('fails the calls waiting for a worker that cannot load', async () => {
    const broken = new WorkerPool(new URL('./no-such-module.js', import.meta.url), {
      size: 2,
      callsPerWorker: 1,
    });
    try {
      await expect(broken.call({ op: 'echo', value: 'x' })).rejects.toThrow();
    } finally {
      await broken.close();
    }
  }, 60_000);
});
