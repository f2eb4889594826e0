import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-app';
import { findChromium } from '../../lib/find-chromium';
import { analysisBrowser } from './browser/axe-chromium';
import { startFixtureServer, type FixtureServer } from './test-fixtures/fixture-server';

const chromiumPath = findChromium(process.env.CHROMIUM_PATH, 'auto');

// The app as configured by default (ANALYSIS_BROWSER=auto), with a Chromium on the machine.
describe.skipIf(!chromiumPath)('page analysis with the Chromium the app found', () => {
  let pages: FixtureServer;
  let app: TestServer | undefined;
  beforeAll(async () => {
    pages = await startFixtureServer();
    app = await startTestServer({
      env: {
        FETCH_ALLOW_HOSTS: '127.0.0.1',
        ANALYSIS_BROWSER: 'auto',
        CHROMIUM_PATH: chromiumPath,
      },
    });
  });
  afterAll(async () => {
    await app?.close();
    await pages?.close();
  });

  it('answers in Chromium mode, and the browser closes with the app', async () => {
    const res = await app!.request('/api/accessibility-analysis', {
      method: 'POST',
      json: { url: `${pages.origin}/low-contrast` },
    });
    expect(res.status).toBe(200);
    const { accessibility_analysis: result } = (await res.json()) as {
      accessibility_analysis: {
        mode: string;
        not_checked?: string[];
        violations: { id: string }[];
      };
    };
    expect(result.mode).toBe('chromium');
    expect(result.not_checked).toBeUndefined();
    expect(result.violations.map((v) => v.id)).toContain('color-contrast');
    expect(await analysisBrowser(chromiumPath!).isRunning()).toBe(true);
    expect(await analysisBrowser(chromiumPath!).openPages()).toBe(0);

    await app!.close();
    app = undefined;
    expect(await analysisBrowser(chromiumPath!).isRunning()).toBe(false);
  }, 60_000);
});
