import { describe, expect, it } from 'vitest';
import { Pool } from './sequence-pool';

describe('Pool', () => {
  it('hands out the free item the caller scores best, else the last freed, else the next released', async () => {
    const pool = new Pool(['a', 'b', 'c']);
    const preferA = (x: string) => (x === 'a' ? 1 : 0);
    expect(await pool.acquire({ score: preferA })).toBe('a');
    expect(await pool.acquire({ score: preferA })).toBe('c');
    expect(await pool.acquire()).toBe('b');
    const waiting = pool.acquire({ score: preferA });
    expect(pool.queued).toBe(1);
    pool.release('c');
    expect(await waiting).toBe('c');
  });

  it('lends a free item for upkeep without queueing, and hands it on when it comes back', async () => {
    const pool = new Pool(['a', 'b']);
    expect(pool.takeFree((x) => x === 'z')).toBeUndefined();
    expect(pool.takeFree((x) => x === 'a')).toBe('a');
    expect(await pool.acquire({ priority: 'batch' })).toBe('b');
    // Upkeep counts as people's: it never holds back batch work.
    expect(pool.batchHeld).toBe(1);
    const waiting = pool.acquire();
    pool.release('a');
    expect(await waiting).toBe('a');
  });

  it('gives a batch waiter, once it may take one, the free item it scores best', async () => {
    const pool = new Pool(['a', 'b', 'c', 'd']);
    const preferA = (x: string) => (x === 'a' ? 1 : 0);
    const held = [
      await pool.acquire({ priority: 'batch' }),
      await pool.acquire({ priority: 'batch' }),
      await pool.acquire({ priority: 'batch' }),
    ];
    expect(held).not.toContain('a');
    // All but one for batch work: the fourth batch request waits, with 'a' free.
    const waiting = pool.acquire({ priority: 'batch', score: preferA });
    expect(pool.queued).toBe(1);
    // Another item comes back (the last freed): the waiter may take one, and takes 'a'.
    pool.release(held[0]!);
    expect(await waiting).toBe('a');
  });

  it('drops a waiter whose signal aborts', async () => {
    const pool = new Pool(['a']);
    await pool.acquire();
    const abort = new AbortController();
    const waiting = pool.acquire({ signal: abort.signal });
    abort.abort(new Error('gone'));
    await expect(waiting).rejects.toThrow('gone');
    expect(pool.queued).toBe(0);
  });

  it('keeps one item for people: batch requests hold at most all but one', async () => {
    const pool = new Pool(['a', 'b', 'c']);
    const first = await pool.acquire({ priority: 'batch' });
    const second = await pool.acquire({ priority: 'batch' });
    const events: string[] = [];
    const third = pool.acquire({ priority: 'batch' }).then((x) => (events.push('batch'), x));
    // The last free item goes to a person, at once.
    const chat = await pool.acquire({ priority: 'interactive' });
    expect([first, second, chat].sort()).toEqual(['a', 'b', 'c']);
    expect(pool.batchHeld).toBe(2);
    // The chat's item freed: still not for a third batch request.
    pool.release(chat);
    await Promise.resolve();
    expect(events).toEqual([]);
    // A batch item freed: the waiting batch request takes it.
    pool.release(first);
    expect(await third).toBe(first);
  });

  it('serves waiting people before waiting batch requests, whatever their order', async () => {
    const pool = new Pool(['a', 'b']);
    const held = [await pool.acquire({ priority: 'batch' }), await pool.acquire()];
    const order: string[] = [];
    const batch = pool.acquire({ priority: 'batch' }).then((x) => (order.push('batch'), x));
    const chat = pool.acquire({ priority: 'interactive' }).then((x) => (order.push('chat'), x));
    pool.release(held[0]!);
    await chat;
    expect(order).toEqual(['chat']);
    pool.release(held[1]!);
    await batch;
    expect(order).toEqual(['chat', 'batch']);
  });

  it('lets batch requests use a single item (nothing to keep back), and keeps a quarter of many', async () => {
    const pool = new Pool(['only']);
    expect(await pool.acquire({ priority: 'batch' })).toBe('only');
    expect(
      [2, 3, 4, 8, 16].map((n) => new Pool(Array.from({ length: n }, (_, i) => i)).batchLimit),
    ).toEqual([1, 2, 3, 6, 12]);
  });
});
