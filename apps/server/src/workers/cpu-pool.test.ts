import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../config';
import type { FetchedResource } from '../features/analysis';
import type { CpuTasks } from '../cpu-tasks';
import { CpuPool, CpuTaskError, CpuTaskTimedOut } from './cpu-pool';
import { taskTimeLimitsMs } from './cpu-task-limits';
import { heavyPage } from './heavy-page.test-helper';

const cached = JSON.stringify({
  text: 'a b',
  units: [{ kind: 'page', label: 'P1', text: 'a b' }],
  truncated: false,
  reader: 3,
});

const smallPage: FetchedResource = { ...heavyPage(2), url: 'http://127.0.0.1/small' };

describe('CPU pool', () => {
  const pool = new CpuPool<CpuTasks>({ workers: 2 });
  afterAll(() => pool.close());

  it('runs tasks in worker threads and keeps the workers for the next ones', async () => {
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

/** The lanes, the time limits and cancel, with the real tasks (../cpu-tasks.ts). */
describe('CPU pool lanes', () => {
  const pools: CpuPool<CpuTasks>[] = [];
  afterAll(() => Promise.all(pools.map((p) => p.close())));
  const newPool = (...args: ConstructorParameters<typeof CpuPool>) => {
    const pool = new CpuPool<CpuTasks>(...args);
    pools.push(pool);
    return pool;
  };
  const runningIn = (pool: CpuPool<CpuTasks>, lane: 'anonymous' | 'signed-in', task: string) =>
    pool
      .threads()
      [lane].filter((t) => t.calls.includes(task))
      .map((t) => t.threadId);

  it("slow anonymous analyses filling their lane do not delay a signed-in user's document task", async () => {
    const pool = newPool({ workers: 2, anonymousWorkers: 1 });
    const stop = new AbortController();
    const settled: string[] = [];
    const slow = [1, 2].map((n) =>
      pool
        .run('axeInJsdom', heavyPage(8000), { lane: 'anonymous', signal: stop.signal })
        .finally(() => settled.push(`anonymous ${n}`)),
    );
    for (const s of slow) s.catch(() => {});
    // The anonymous lane's one worker is busy with the first; the second waits in its lane.
    await expect
      .poll(() => runningIn(pool, 'anonymous', 'axeInJsdom'), { timeout: 60_000 })
      .toHaveLength(1);
    // Documents: a cached text read and a summary's cutting, both answered meanwhile.
    expect(await pool.run('parseCachedText', cached)).toEqual(JSON.parse(cached));
    const chunks = await pool.run('summaryChunks', {
      units: [{ kind: 'page', label: 'P1', text: 'One sentence. Another one.' }],
      mode: 'full',
      maxTokens: 1000,
      budget: 1000,
      tokensPerEstimate: 1,
    });
    expect(chunks.length).toBeGreaterThan(0);
    // Neither anonymous analysis had ended: the document work did not wait for them.
    expect(settled).toEqual([]);
    expect(runningIn(pool, 'anonymous', 'axeInJsdom')).toHaveLength(1);
    stop.abort(new Error('test over'));
    await Promise.allSettled(slow);
  }, 120_000);

  it('ends a task past its time limit with its worker; the lane serves the next task', async () => {
    const pool = newPool({ workers: 1, anonymousWorkers: 1, timeLimits: { axeInJsdom: 1 } });
    // A warm worker: the limit then measures the audit, not the thread's start.
    await pool.run('pageLinks', smallPage, { lane: 'anonymous' });
    const [warm] = pool.threads().anonymous.map((t) => t.threadId);
    const late = pool.run('axeInJsdom', heavyPage(8000), { lane: 'anonymous' });
    await expect(late).rejects.toBeInstanceOf(CpuTaskTimedOut);
    await expect(late).rejects.toMatchObject({
      statusCode: 504,
      message:
        'The accessibility audit of the page took longer than its limit (1 s) and was stopped.',
    });
    await expect
      .poll(() => pool.threads().anonymous.map((t) => t.threadId), { timeout: 30_000 })
      .not.toContain(warm);
    const links = await pool.run('pageLinks', smallPage, { lane: 'anonymous' });
    expect(links).toContain('/p0');
    expect(pool.threads().anonymous.map((t) => t.threadId)).not.toContain(warm);
  }, 120_000);
});

describe('CPU_TASK_TIME_LIMITS', () => {
  it('takes task=seconds entries over the defaults, and names what is wrong', () => {
    const env = { DATA_DIR: mkdtempSync(path.join(tmpdir(), 'inkwell-cpu-')) };
    const settings = loadSettings({ ...env, CPU_TASK_TIME_LIMITS: 'axeInJsdom=90, pageLinks=2.5' });
    expect(settings.CPU_TASK_TIME_LIMITS).toEqual({ axeInJsdom: 90, pageLinks: 2.5 });
    expect(taskTimeLimitsMs(settings.CPU_TASK_TIME_LIMITS)).toMatchObject({
      axeInJsdom: 90_000,
      pageLinks: 2_500,
      auditSeoPage: 30_000,
    });
    expect(loadSettings(env).CPU_TASK_TIME_LIMITS).toEqual({});
    for (const bad of ['axe=5', 'axeInJsdom=0', 'axeInJsdom=soon', 'axeInJsdom'])
      expect(() => loadSettings({ ...env, CPU_TASK_TIME_LIMITS: bad })).toThrow(
        /CPU_TASK_TIME_LIMITS: must be task=seconds entries/,
      );
    rmSync(env.DATA_DIR, { recursive: true, force: true });
  });
});
