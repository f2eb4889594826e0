import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { startProductAi, type OpenAITestServer, type OpenAITestServerOptions } from './ai';
import { launchBrowser, newContext, saveFailure } from './browser';
import { startProductServer, type ProductServer } from './product-server';
import { watchSlowRequests } from './slow-requests';

export interface Scenario {
  server: ProductServer;
  /** The product's fake AI, when the scenario asked for one (`ai` option). */
  ai: OpenAITestServer;
  browser: Browser;
  context: BrowserContext;
  page: Page;
}

/**
 * One server and one browser per file; a fresh context and page per test, with screenshot and
 * trace saved when the test fails. With `ai`, the product's fake AI (support/ai.ts) is started
 * first and the server uses it.
 */
export function useScenario(
  opts: {
    env?: () => Promise<Record<string, string>> | Record<string, string>;
    viewport?: { width: number; height: number };
    ai?: OpenAITestServerOptions;
  } = {},
): Scenario {
  const s = {} as Scenario;
  beforeAll(async () => {
    const env = { ...(opts.env ? await opts.env() : {}) };
    if (opts.ai) {
      s.ai = await startProductAi(opts.ai);
      env.AI_BASE_URL = s.ai.url;
    }
    // The server and the browser start at once (each mostly waits); both are kept for afterAll
    // to stop, even when the other failed.
    const [server, browser] = await Promise.allSettled([startProductServer(env), launchBrowser()]);
    if (server.status === 'fulfilled') s.server = server.value;
    if (browser.status === 'fulfilled') s.browser = browser.value;
    if (server.status === 'rejected') throw server.reason;
    if (browser.status === 'rejected') throw browser.reason;
  });
  afterAll(async () => {
    await s.browser?.close();
    await s.server?.stop();
    await s.ai?.close();
  });
  let problems: string[] = [];
  let slowRequests: () => string[] = () => [];
  beforeEach(async () => {
    problems = [];
    s.context = await newContext(s.browser, { viewport: opts.viewport });
    s.page = await s.context.newPage();
    slowRequests = watchSlowRequests(s.page);
    // Uncaught errors and missing assets (e.g. the web app rebuilt mid-run) explain blank pages.
    s.page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
    s.page.on('response', (r) => {
      if (r.status() >= 400 && !new URL(r.url()).pathname.includes('/api/')) {
        problems.push(`${r.status()} ${r.url()}`);
      }
    });
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') {
      await saveFailure(s.context, s.page, ctx.task.name, [...problems, ...slowRequests()]);
    }
    await s.context.close();
  });
  return s;
}
