import type { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { ExtractionPool } from './extraction-pool';
import { makePptx, makeXlsx } from './test-fixtures';
import { DEFAULT_LIMITS } from './types';

const text = (s: string) => Buffer.from(s, 'utf8');

describe('ExtractionPool (documents are parsed in worker threads)', () => {
  const pool = new ExtractionPool(1);
  afterAll(() => pool.close());

  it('keeps its worker for the next document', async () => {
    const first = await pool.read('txt', text('one'), DEFAULT_LIMITS);
    const second = await pool.read('txt', text('two'), DEFAULT_LIMITS);
    expect([first.text, second.text]).toEqual(['one', 'two']);
    expect(pool.started).toBe(1);
  });

  it('stops a parse at the time limit by ending its worker, then reads the next document', async () => {
    await pool.read('txt', text('warm'), DEFAULT_LIMITS); // the worker is up: the limit times the parse
    const started = pool.started;
    const big = await makeXlsx({ S: Array.from({ length: 10_000 }, (_, i) => [i, 'row', i * 2]) });
    await expect(pool.read('xlsx', big, { ...DEFAULT_LIMITS, timeLimitMs: 50 })).rejects.toThrow(
      'could not read this file: it took too long to read',
    );
    const next = await pool.read('txt', text('after'), DEFAULT_LIMITS);
    expect(next.text).toBe('after');
    expect(pool.started).toBe(started + 1);
  });

  it('replaces an idle worker that ended on its own instead of handing it the next document', async () => {
    await pool.read('txt', text('warm'), DEFAULT_LIMITS);
    const started = pool.started;
    // No public way to kill a worker, by design: reach the idle one as a crash would.
    const { pool: workers } = pool as unknown as { pool: { slots: { worker?: Worker }[] } };
    await workers.slots[0]!.worker!.terminate();
    // The reader's own time limit: a pool that handed the document to the dead worker would fail
    // it there (a new worker's start-up may take seconds on a loaded machine, so no shorter one).
    const next = await pool.read('txt', text('after a crash'), DEFAULT_LIMITS);
    expect(next.text).toBe('after a crash');
    expect(pool.started).toBe(started + 1);
  }, 60_000);

  it('answers a document that needs more memory than allowed with a clear error, not a crash', async () => {
    const small = new ExtractionPool(1, 64);
    try {
      // The pptx reader holds a slide as a tree many times its XML: far more than a 64 MB heap.
      const big = await makePptx([
        Array.from({ length: 300_000 }, (_, i) => `line ${i} of one very long slide`),
      ]);
      await expect(small.read('pptx', big, DEFAULT_LIMITS)).rejects.toThrow(
        'could not read this file: it needs more memory than one document may use',
      );
      expect((await small.read('txt', text('still here'), DEFAULT_LIMITS)).text).toBe('still here');
    } finally {
      await small.close();
    }
  });
});
