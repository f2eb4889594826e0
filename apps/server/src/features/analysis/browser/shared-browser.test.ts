import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseAccessibility } from '../analysis.service';
import { startFixtureServer, type FixtureServer } from '../test-fixtures/fixture-server';
import { noModel } from '../test-fixtures/no-model';
import { analysisBrowser } from './axe-chromium';
import { findChromium } from '../../../lib/find-chromium';
import {
  BrowserClosed,
  closeSharedBrowsers,
  SharedBrowser,
  useSharedBrowsers,
} from './shared-browser';

// Runs only where a Chromium is installed (CHROMIUM_PATH, or a usual install path).
const chromiumPath = findChromium(process.env.CHROMIUM_PATH, 'auto');

describe.skipIf(!chromiumPath)('the shared browser', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer();
  });
  afterAll(async () => {
    await closeSharedBrowsers();
    await server?.close();
  });

  it('gives each of concurrent analyses its own page: each gets the findings of its own page', async () => {
    const deps = { ai: noModel, allowHosts: ['127.0.0.1'], chromiumPath };
    const paths = ['/clean', '/defects', '/low-contrast'];
    // From a closed browser (a file before may have left the process's one running).
    await closeSharedBrowsers();
    const launchesBefore = analysisBrowser(chromiumPath!).launches;
    const findings = async (path: string) => {
      const r = await analyseAccessibility(deps, `${server.origin}${path}`);
      expect(r.mode).toBe('chromium');
      return { url: r.url, violations: r.violations.map((v) => v.id).sort() };
    };
    // Each page alone first: what it must get (this also leaves a spare page opening).
    const alone = [];
    for (const path of paths) alone.push(await findings(path));
    expect(new Set(alone.map((a) => a.violations.join())).size).toBe(paths.length);
    // Then all at once, twice over, while the spare is being opened.
    const together = await Promise.all([...paths, ...paths].map(findings));
    expect(together).toEqual([...alone, ...alone]);
    expect(analysisBrowser(chromiumPath!).launches - launchesBefore).toBe(1);
    expect(await analysisBrowser(chromiumPath!).openPages()).toBe(0);
  }, 120_000);

  it('recovers from a crash with one launch, however many analyses notice it', async () => {
    const browser = new SharedBrowser(chromiumPath!);
    const limits = { timeoutMs: 30_000 };
    const title = (b: SharedBrowser) =>
      b.withPage(limits, async (page) => {
        await page.setContent('<title>up</title>');
        return page.title();
      });
    let crashed: Browser | null = null;
    try {
      crashed = await browser.withPage(limits, async (page) => page.context().browser());
      expect(browser.launches).toBe(1);
      // A crash not reported yet (no 'disconnected' event): the browser just says it is gone.
      crashed!.isConnected = () => false;
      expect(await Promise.all([title(browser), title(browser), title(browser)])).toEqual([
        'up',
        'up',
        'up',
      ]);
      expect(browser.launches).toBe(2);
      expect(await browser.isRunning()).toBe(true);
    } finally {
      await crashed?.close();
      await browser.close();
    }
  }, 120_000);

  it('tells a page closed under it by close() from a failure of the page', async () => {
    const browser = new SharedBrowser(chromiumPath!);
    let opened!: () => void;
    const inUse = new Promise<void>((resolve) => (opened = resolve));
    const audit = browser.withPage({ timeoutMs: 60_000 }, async (page) => {
      opened();
      await page.waitForEvent('close', { timeout: 0 });
      return page.title();
    });
    // Its rejection is taken at once: it comes while close() is still awaited.
    const outcome = audit.then(
      () => undefined,
      (err: unknown) => err,
    );
    await inUse;
    await browser.close();
    expect(await outcome).toBeInstanceOf(BrowserClosed);
    // A page's own failure stays what it was.
    const own = browser.withPage({ timeoutMs: 60_000 }, async () => {
      throw new Error('the page itself');
    });
    await expect(own).rejects.toThrow('the page itself');
    await browser.close();
  }, 120_000);

  it('runs nothing for a caller gone while the browser starts or the page opens', async () => {
    const browser = new SharedBrowser(chromiumPath!);
    let used = 0;
    const use = async () => {
      used++;
    };
    try {
      // Gone during the launch (the first call starts the browser).
      const launch = new AbortController();
      const first = browser.withPage({ timeoutMs: 30_000, signal: launch.signal }, use);
      launch.abort(new Error('went away during the launch'));
      await expect(first).rejects.toThrow('went away during the launch');
      // Gone while the page opens: the spare is closed, so the call opens a page, and the
      // caller goes away as it does.
      let context!: BrowserContext;
      await browser.withPage({ timeoutMs: 30_000 }, async (page) => {
        context = page.context();
      });
      await browser.openPages(); // the spare has opened
      for (const spare of context.pages()) await spare.close();
      const opening = new AbortController();
      const newPage = context.newPage.bind(context);
      context.newPage = () => {
        opening.abort(new Error('went away as the page opened'));
        return newPage();
      };
      const second = browser.withPage({ timeoutMs: 30_000, signal: opening.signal }, use);
      await expect(second).rejects.toThrow('went away as the page opened');
      expect(used).toBe(0);
      expect(await browser.openPages()).toBe(0);
    } finally {
      await browser.close();
    }
  }, 120_000);

  it('closes the shared browsers when the last app of the process lets go of them', async () => {
    const deps = { ai: noModel, allowHosts: ['127.0.0.1'], chromiumPath };
    const first = useSharedBrowsers();
    const second = useSharedBrowsers();
    await analyseAccessibility(deps, `${server.origin}/clean`);
    await first();
    await first(); // once only
    expect(await analysisBrowser(chromiumPath!).isRunning()).toBe(true);
    await second();
    expect(await analysisBrowser(chromiumPath!).isRunning()).toBe(false);
  }, 120_000);
});
