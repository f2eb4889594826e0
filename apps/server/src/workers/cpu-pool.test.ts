import { afterAll, describe, expect, it } from 'vitest';
import { CpuPool, CpuTaskError } from './cpu-pool';

describe('CPU pool', () => {
  const pool = new CpuPool(2);
  afterAll(() => pool.close());

  it('runs tasks in worker threads and keeps the workers for the next ones', async () => {
    const cached = JSON.stringify({
      text: 'a b',
      units: [{ kind: 'page', label: 'P1', text: 'a b' }],
      truncated: false,
      reader: 3,
    });
    const results = await Promise.all(
      Array.from({ length: 6 }, () => pool.run('parseCachedText', cached)),
    );
    for (const r of results) expect(r).toEqual(JSON.parse(cached));
    // Two workers for six tasks: each task waited its turn for one of them.
    expect(pool.started).toBe(2);
  });

  it("fails a task with its error's message, and goes on with the next", async () => {
    await expect(pool.run('parseCachedText', '{not json')).rejects.toBeInstanceOf(CpuTaskError);
    await expect(pool.run('parseCachedText', '[1]')).resolves.toEqual([1]);
  });
});
