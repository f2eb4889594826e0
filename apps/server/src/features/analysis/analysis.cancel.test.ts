import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEventStream } from '../../../test/event-stream-client';
import { startTestServer, type TestServer } from '../../../test/test-app';
import { configureCpuPool, cpuPool } from '../../workers/cpu-pool';

/**
 * Cancelling an anonymous page analysis while axe audits its page in jsdom (minutes for this
 * page): the task is stopped for real. The CPU pool's anonymous lane shows the thread running
 * it; after the cancel that thread ends (it leaves the pool's live threads once it has exited),
 * and the next analysis gets a new worker. And one past its time limit is stopped the same way,
 * with an answer that says so.
 */
let pages: Server;
let origin = '';
let app: TestServer;

const heavyPage = () => {
  let body = '<!doctype html><html lang="en"><head><title>Heavy</title></head><body><main>';
  for (let i = 0; i < 8000; i++)
    body += `<div><a href="/p${i}"><img src="/i${i}.png"></a><span style="color:#bbb">${i}</span></div>`;
  return `${body}</main></body></html>`;
};

beforeAll(async () => {
  const heavy = heavyPage();
  pages = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      req.url === '/heavy'
        ? heavy
        : '<!doctype html><html lang="en"><head><title>Small</title></head><body><main><h1>Hi</h1></main></body></html>',
    );
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  app = await startTestServer({ env: { FETCH_ALLOW_HOSTS: '127.0.0.1' } });
});
afterAll(async () => {
  await app?.close();
  await new Promise((resolve) => pages?.close(resolve));
});

const auditing = () =>
  cpuPool()
    .threads()
    .anonymous.filter((t) => t.calls.includes('axeInJsdom'))
    .map((t) => t.threadId);

describe('a page analysis stopped in the CPU pool', () => {
  it('ends the worker thread running its audit; the next analysis gets a new one', async () => {
    const stream = await openEventStream(app.url, {
      path: '/api/accessibility-analysis',
      body: {
        contentType: 'application/json',
        bytes: Buffer.from(JSON.stringify({ url: `${origin}/heavy` })),
      },
    });
    const { id } = (await stream.waitFor((e) => e.event === 'job')).data as { id: string };
    // Anonymous: its audit runs in the anonymous lane.
    await expect.poll(auditing, { timeout: 60_000 }).toHaveLength(1);
    const [thread] = auditing();

    const res = await app.request(`/api/jobs/${id}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { state: string }).state).toBe('cancelled');
    await expect
      .poll(
        () =>
          cpuPool()
            .threads()
            .anonymous.map((t) => t.threadId),
        { timeout: 30_000 },
      )
      .not.toContain(thread);

    const next = await app.request('/api/accessibility-analysis', {
      method: 'POST',
      json: { url: `${origin}/small` },
    });
    expect(next.status).toBe(200);
    expect(
      cpuPool()
        .threads()
        .anonymous.map((t) => t.threadId),
    ).not.toContain(thread);
  }, 120_000);

  it('answers an analysis past its time limit (CPU_TASK_TIME_LIMITS) with a 504 that says so', async () => {
    const limited = await startTestServer({
      env: { FETCH_ALLOW_HOSTS: '127.0.0.1', CPU_TASK_TIME_LIMITS: 'axeInJsdom=1, pageLinks=5' },
    });
    try {
      const res = await limited.request('/api/accessibility-analysis', {
        method: 'POST',
        json: { url: `${origin}/heavy` },
      });
      expect(res.status).toBe(504);
      expect(await res.json()).toEqual({
        error:
          'The accessibility audit of the page took longer than its limit (1 s) and was stopped.',
      });
      expect(auditing()).toEqual([]);
    } finally {
      await limited.close();
      configureCpuPool({}); // the process's pool: the defaults again
    }
  }, 120_000);
});
