import AxeBuilder from '@axe-core/playwright';
import { chromium } from 'playwright-core';
import { LIGHTHOUSE_EXTRA_RULES, type AxeRun } from './axe-jsdom';
import type { FetchedResource } from './safe-fetch';
import { CHROMIUM_ARGS } from './chromium-flags';

const PAGE_CSP = "script-src 'none'; object-src 'none'; worker-src 'none'; frame-src 'none'";
const ASSET_TYPES = new Set(['stylesheet', 'image', 'font']);
const MAX_ASSETS = 40;

export interface ChromiumOptions {
  executablePath: string;
  /** Fetches a sub-resource under the same safety rules as the page; null to skip it. */
  fetchAsset(url: string): Promise<{ status: number; contentType: string; body: Buffer } | null>;
  timeoutMs?: number;
}

/**
 * axe-core in headless Chromium (CHROMIUM_PATH), which enables the rendering rules (contrast,
 * target size, landmarks). The browser loads only what we hand it: the document we already
 * fetched, and the stylesheets, images and fonts that `fetchAsset` (our vetted fetcher) returns;
 * every other request is aborted, page scripts are blocked by a CSP on the document, and the host
 * resolver maps every name to nothing (see chromium-flags), so the browser cannot reach the network.
 */
export async function runAxeInChromium(
  page: FetchedResource,
  opts: ChromiumOptions,
): Promise<AxeRun> {
  const browser = await chromium.launch({
    executablePath: opts.executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    timeout: opts.timeoutMs ?? 20_000,
  });
  try {
    // JavaScript stays on because axe runs as page script (with it off, @axe-core/playwright
    // hangs); the page's own scripts are stopped by `script-src 'none'`, which a page can tighten
    // but never loosen, while Playwright's injected evaluation is not subject to CSP.
    const context = await browser.newContext({ serviceWorkers: 'block' });
    context.setDefaultTimeout(opts.timeoutMs ?? 20_000);
    let assets = 0;
    await context.route('**/*', async (route) => {
      const req = route.request();
      if (req.isNavigationRequest() && req.url() === page.url) {
        return route.fulfill({
          status: page.status,
          headers: { 'content-type': page.contentType, 'content-security-policy': PAGE_CSP },
          body: page.body,
        });
      }
      if (!ASSET_TYPES.has(req.resourceType()) || assets >= MAX_ASSETS) return route.abort();
      assets += 1;
      const asset = await opts.fetchAsset(req.url()).catch(() => null);
      return asset ? route.fulfill(asset) : route.abort();
    });
    const tab = await context.newPage();
    await tab.goto(page.url, { waitUntil: 'load' });
    const rules = Object.fromEntries(
      [...LIGHTHOUSE_EXTRA_RULES, 'target-size'].map((id) => [id, { enabled: true }]),
    );
    const result = await new AxeBuilder({ page: tab }).options({ rules }).analyze();
    return {
      violations: result.violations,
      passes: result.passes.map((r) => r.id),
      incomplete: result.incomplete.map((r) => r.id),
      notChecked: [],
    };
  } finally {
    await browser.close();
  }
}
