import type { Browser } from 'playwright-core';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS } from '../../server/src/features/analysis/browser/chromium-flags';
import { CHROMIUM, launchBrowser, newContext, saveFailure } from './support/browser';
import { startProductServer, type ProductServer } from './support/product-server';

/** A made-up name of the machine on a team's network; the browser maps it to loopback. */
const HOST_NAME = 'inkwell.lan';

/**
 * A team reaches the server by the machine's name over plain HTTP (the default HOST answers every
 * name). The page must render there: a policy that upgrades requests to https would leave it white.
 */
describe('the app over plain HTTP by a host name other than localhost', () => {
  let server: ProductServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startProductServer();
    await launchBrowser().then((b) => b.close()); // the same checks as every other scenario
    // The suite's resolver maps every name to nothing but 127.0.0.1; this one also maps the host
    // name to 127.0.0.1, so the traffic stays on loopback.
    const args = CHROMIUM_ARGS.filter((a) => !a.startsWith('--host-resolver-rules='));
    args.push(
      `--host-resolver-rules=MAP ${HOST_NAME} 127.0.0.1, MAP * ~NOTFOUND , EXCLUDE 127.0.0.1`,
    );
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('renders the sign-in page with every asset loaded over http', async () => {
    const url = new URL(`${server.url}login`);
    url.hostname = HOST_NAME;
    const context = await newContext(browser);
    const page = await context.newPage();
    const problems: string[] = [];
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    page.on('requestfailed', (r) => problems.push(`failed: ${r.url()} ${r.failure()?.errorText}`));
    page.on('response', (r) => {
      // API answers (no session yet) are the app's business; assets must all load.
      if (r.status() >= 400 && !new URL(r.url()).pathname.includes('/api/'))
        problems.push(`${r.status()} ${r.url()}`);
    });
    page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
    try {
      await page.goto(url.toString());
      await expect
        .poll(() => page.getByRole('heading', { name: 'Sign in' }).isVisible())
        .toBe(true);
      expect(problems).toEqual([]);
      // The bundle came from the name typed, over http (no upgrade to https).
      const scripts = requested.filter((u) => u.endsWith('.js'));
      expect(scripts.length).toBeGreaterThan(0);
      for (const u of requested.filter((r) => r.startsWith('http')))
        expect(new URL(u).origin).toBe(url.origin);
    } catch (err) {
      await saveFailure(context, page, 'plain http host name', problems);
      throw err;
    }
    await context.close();
  });
});
