import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../../../lib/http-error';
import { analyseAccessibility } from '../analysis.service';
import { analysisBrowser, runAxeInChromium, type ChromiumOptions } from './axe-chromium';
import { findChromium } from '../../../lib/find-chromium';
import type { FetchedResource } from '../fetch/safe-fetch';
import { closeSharedBrowsers } from './shared-browser';
import { startFixtureServer, type FixtureServer } from '../test-fixtures/fixture-server';
import { noModel } from '../test-fixtures/no-model';

// Runs only where a Chromium is installed (CHROMIUM_PATH, or a usual install path).
const chromiumPath = findChromium(process.env.CHROMIUM_PATH, 'auto');

/** A page handed to the browser as if fetched from a loopback address nobody listens on. */
function page(body: string, path = '/page'): FetchedResource {
  return {
    url: `http://127.0.0.1:9${path}`,
    status: 200,
    headers: {},
    rawHeaders: [],
    contentType: 'text/html; charset=utf-8',
    body: Buffer.from(
      `<!doctype html><html lang="en"><head><title>A page</title>` +
        `<meta name="viewport" content="width=device-width"></head><body>${body}</body></html>`,
    ),
    redirects: [],
  };
}

const noAssets: ChromiumOptions['fetchAsset'] = async () => null;

describe.skipIf(!chromiumPath)('accessibility analysis in headless Chromium', () => {
  let server: FixtureServer;
  const browser = () => analysisBrowser(chromiumPath!);
  beforeAll(async () => {
    server = await startFixtureServer();
  });
  afterAll(async () => {
    await closeSharedBrowsers();
    await server?.close();
  });
  afterEach(async () => {
    // Every path (success, error, timeout, abort) leaves no page behind in the warm browser.
    expect(await browser().openPages()).toBe(0);
  });

  it('checks colour contrast with the page stylesheet fetched through the vetted fetcher', async () => {
    const before = server.hits.length;
    const result = await analyseAccessibility(
      { ai: noModel, allowHosts: ['127.0.0.1'], chromiumPath },
      `${server.origin}/low-contrast`,
    );
    expect(result.mode).toBe('chromium');
    expect(result.not_checked).toBeUndefined();
    expect(result.violations.map((v) => v.id)).toContain('color-contrast');
    // The page and its stylesheet were fetched by our fetcher, and nothing else.
    expect(server.hits.slice(before)).toEqual(['/low-contrast', '/style.css']);
  }, 60_000);

  it("never runs the page's own scripts", async () => {
    // The defects page sets its title from a script: if it ran, document-title would pass.
    const result = await analyseAccessibility(
      { ai: noModel, allowHosts: ['127.0.0.1'], chromiumPath },
      `${server.origin}/defects`,
    );
    expect(result.violations.map((v) => v.id)).toContain('document-title');
  }, 60_000);

  it('finds what needs layout, and the rules Lighthouse adds to axe', async () => {
    const run = await runAxeInChromium(
      page(
        '<main><h1>Page</h1>' +
          '<p style="color:#000">Read <a href="/more" style="color:#222;text-decoration:none">more</a> here.</p>' +
          '<button style="width:8px;height:8px;padding:0;border:0">x</button>' +
          '<button style="width:8px;height:8px;padding:0;border:0;margin-left:1px">y</button>' +
          '<button aria-label="Close dialog">Send</button>' +
          '<a href="#gone" style="position:absolute;left:-9999px">Skip</a></main>',
      ),
      { executablePath: chromiumPath!, fetchAsset: noAssets },
    );
    expect(run.violations.map((v) => v.id)).toEqual(
      expect.arrayContaining(['link-in-text-block', 'target-size', 'label-content-name-mismatch']),
    );
    expect(run.notChecked).toEqual([]);
  }, 60_000);

  it('keeps one warm browser across analyses, and starts another after a crash', async () => {
    const launches = browser().launches;
    await runAxeInChromium(page('<main><h1>One</h1></main>'), {
      executablePath: chromiumPath!,
      fetchAsset: noAssets,
    });
    const afterFirst = browser().launches;
    expect(afterFirst - launches).toBeLessThanOrEqual(1);
    await runAxeInChromium(page('<main><h1>Two</h1></main>'), {
      executablePath: chromiumPath!,
      fetchAsset: noAssets,
    });
    expect(browser().launches).toBe(afterFirst);
    expect(await browser().isRunning()).toBe(true);

    // The browser goes away under a running analysis, as a crash would take it.
    await expect(
      browser().withPage({ timeoutMs: 20_000 }, async (tab) => {
        await tab.context().browser()!.close();
        await tab.goto('about:blank');
      }),
    ).rejects.toThrow();
    const run = await runAxeInChromium(page('<main><h1>Three</h1><img src="x.png"></main>'), {
      executablePath: chromiumPath!,
      fetchAsset: noAssets,
    });
    expect(run.violations.map((v) => v.id)).toContain('image-alt');
    expect(browser().launches).toBe(afterFirst + 1);
  }, 60_000);

  it('closes the page when the page never finishes loading (timeout)', async () => {
    const stalled = runAxeInChromium(
      page('<link rel="stylesheet" href="/never.css"><main><h1>Slow</h1></main>'),
      {
        executablePath: chromiumPath!,
        // A stylesheet that never arrives holds the load event back.
        fetchAsset: () => new Promise(() => undefined),
        timeoutMs: 1_000,
      },
    );
    await expect(stalled).rejects.toMatchObject({ statusCode: 504 });
    await expect(stalled).rejects.toBeInstanceOf(HttpError);
  }, 60_000);

  it('closes the page when the caller goes away (abort) and when loading fails', async () => {
    const controller = new AbortController();
    let requested!: () => void;
    const assetRequested = new Promise<void>((resolve) => (requested = resolve));
    const aborted = runAxeInChromium(
      page('<link rel="stylesheet" href="/slow.css"><main><h1>Slow</h1></main>'),
      {
        executablePath: chromiumPath!,
        fetchAsset: () => {
          requested();
          return new Promise(() => undefined);
        },
        signal: controller.signal,
      },
    );
    await assetRequested; // the page is open and loading
    expect(await browser().openPages()).toBe(1);
    controller.abort(new Error('client went away'));
    await expect(aborted).rejects.toThrow('client went away');
    expect(await browser().openPages()).toBe(0);

    // A navigation the browser refuses (the page was fetched from another address).
    const refused = { ...page('<main></main>'), url: 'http://127.0.0.1:9/a' };
    await expect(
      browser().withPage({ timeoutMs: 20_000 }, async (tab) => {
        await tab.goto(refused.url); // nothing is routed and nobody listens: the load fails
      }),
    ).rejects.toThrow();
  }, 60_000);

  it('closes the browser with the app, and launches again on the next analysis', async () => {
    await runAxeInChromium(page('<main><h1>Before</h1></main>'), {
      executablePath: chromiumPath!,
      fetchAsset: noAssets,
    });
    expect(await browser().isRunning()).toBe(true);
    await closeSharedBrowsers();
    expect(await browser().isRunning()).toBe(false);
    const run = await runAxeInChromium(page('<main><h1>After</h1></main>'), {
      executablePath: chromiumPath!,
      fetchAsset: noAssets,
    });
    expect(run.passes).toContain('document-title');
  }, 60_000);

  it('falls back to jsdom when the browser cannot be started', async () => {
    const result = await analyseAccessibility(
      { ai: noModel, allowHosts: ['127.0.0.1'], chromiumPath: '/nonexistent/chromium' },
      `${server.origin}/clean`,
    );
    expect(result.mode).toBe('jsdom');
    expect(result.not_checked).toContain('color-contrast');
  }, 60_000);
});
