import type { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import type { FixtureCall } from './worker-pool.fixture';
import { siblingModule, WorkerPool } from './worker-pool';

describe('WorkerPool', () => {
  const pool = new WorkerPool(siblingModule('worker-pool.fixture', import.meta.url), { size: 1 });
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
