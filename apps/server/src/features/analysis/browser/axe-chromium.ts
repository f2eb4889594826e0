import type axe from 'axe-core';
import { axeCore } from '../../../lib/lazy-axe';
import type { AxeRawResult } from '../audits/accessibility/accessibility-score';
import type { AxeRun } from '../audits/accessibility/axe-jsdom';
import { axeRunOptions, LIGHTHOUSE_A11Y_RULES } from '../audits/accessibility/lighthouse-rules';
import type { FetchedResource } from '../fetch/safe-fetch';
import { sharedBrowser, type SharedBrowser } from './shared-browser';

/**
 * The warm browser of page analysis. axe is its init script: in every document before the audit,
 * without sending its 1.5 MB over the wire each time. JavaScript stays on because axe runs as page
 * script; the page's own scripts are stopped by `script-src 'none'`, which a page can tighten but
 * never loosen, while init scripts and Playwright's evaluation are not subject to CSP.
 */
export function analysisBrowser(executablePath: string): SharedBrowser {
  return sharedBrowser(executablePath, axeInitScript());
}

// Not in the blank document every new page starts with: that would double the cost of a page.
const axeInitScript = () => `if (location.protocol !== 'about:') {\n${axeCore().source}\n}`;

const PAGE_CSP = "script-src 'none'; object-src 'none'; worker-src 'none'; frame-src 'none'";
const ASSET_TYPES = new Set(['stylesheet', 'image', 'font']);
const MAX_ASSETS = 40;

export interface ChromiumOptions {
  executablePath: string;
  /** Fetches a sub-resource under the same safety rules as the page; null to skip it. */
  fetchAsset(url: string): Promise<{ status: number; contentType: string; body: Buffer } | null>;
  /** The whole audit: page load, assets and axe. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

interface AxeOutput {
  violations: AxeRawResult[];
  passes: Array<{ id: string }>;
  incomplete: Array<{ id: string }>;
}

/**
 * axe-core in headless Chromium, which enables the rendering rules (contrast, target size, link
 * distinction). The process's warm browser (shared-browser) lends a fresh page that loads only
 * what we hand it: the document we already fetched, and the stylesheets, images and fonts that
 * `fetchAsset` (our vetted fetcher) returns; every other request is aborted, page scripts are
 * blocked by a CSP on the document, and the host resolver maps every name to nothing (see
 * chromium-flags), so the browser cannot reach the network.
 */
export function runAxeInChromium(page: FetchedResource, opts: ChromiumOptions): Promise<AxeRun> {
  const timeoutMs = opts.timeoutMs ?? 20_000;
  return analysisBrowser(opts.executablePath).withPage(
    { timeoutMs, signal: opts.signal },
    async (tab) => {
      tab.setDefaultTimeout(timeoutMs);
      let assets = 0;
      await tab.route('**/*', async (route) => {
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
      await tab.goto(page.url, { waitUntil: 'load' });
      // axe runs as Lighthouse's gatherer runs it: one axe.run.
      const result = await tab.evaluate(
        (options) =>
          (window as unknown as { axe: typeof axe }).axe.run(
            document,
            options,
          ) as unknown as Promise<AxeOutput>,
        axeRunOptions(LIGHTHOUSE_A11Y_RULES),
      );
      return {
        violations: result.violations,
        passes: result.passes.map((r) => r.id),
        incomplete: result.incomplete.map((r) => r.id),
        notChecked: [],
      };
    },
  );
}
