import { describe, expect, it } from 'vitest';
import { Pool } from './sequence-pool';

describe('Pool', () => {
  it('hands out a free item that the caller prefers, else any free one, else the next released', async () => {
    const pool = new Pool(['a', 'b', 'c']);
    expect(await pool.acquire(undefined, (x) => x === 'a')).toBe('a');
    expect(await pool.acquire(undefined, (x) => x === 'a')).toBe('c');
    expect(await pool.acquire()).toBe('b');
    const waiting = pool.acquire(undefined, (x) => x === 'a');
    expect(pool.queued).toBe(1);
    pool.release('c');
    expect(await waiting).toBe('c');
  });

  it('drops a waiter whose signal aborts', async () => {
    const pool = new Pool(['a']);
    await pool.acquire();
    const abort = new AbortController();
    const waiting = pool.acquire(abort.signal);
    abort.abort(new Error('gone'));
    await expect(waiting).rejects.toThrow('gone');
    expect(pool.queued).toBe(0);
  });
});
