import { afterAll, describe, expect, it } from 'vitest';
import type { CpuTasks } from '../cpu-tasks';
import { CpuPool, CpuTaskOutOfMemory } from './cpu-pool';

/**
 * A task that needs more memory than its worker may have ends that worker, not the server (a
 * docx preview of a million empty paragraphs took 1.1 GB of the process's heap): the caller
 * gets a 413 and the pool goes on with a new worker. (Node ends a worker at its limit on a best
 * effort: one array grown past it can still abort the process, nodejs/node#47224; a heap of
 * many objects, as here, ends the worker alone.)
 */
describe('CPU pool heap limit', () => {
  const pool = new CpuPool<CpuTasks>({ workers: 1, heapMb: 64 });
  afterAll(() => pool.close());

  it('fails a task past its heap limit with 413, and runs the next one', async () => {
    // A docx of 100,000 empty lines: the docx library's objects take some 600 MB.
    const text = '\n'.repeat(100_000);
    const failed = await pool
      .run('exportFile', { text, format: 'docx' })
      .catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(CpuTaskOutOfMemory);
    expect((failed as CpuTaskOutOfMemory).statusCode).toBe(413);
    await expect(pool.run('parseCachedText', '[1]')).resolves.toEqual([1]);
    expect(pool.started).toBe(2);
  });
});
