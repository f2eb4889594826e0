import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseAccessibility } from './analysis.service';
import { startFixtureServer, type FixtureServer } from './test-fixtures/fixture-server';
import { noModel } from './test-fixtures/no-model';

// Runs only where a Chromium is installed (CHROMIUM_PATH, or Debian's /usr/bin/chromium).
const chromiumPath =
  process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

describe.skipIf(!chromiumPath)('accessibility analysis in headless Chromium', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer();
  });
  afterAll(() => server?.close());

  it('checks colour contrast with the page stylesheet fetched through the vetted fetcher', async () => {
    const before = server.hits.length;
    const result = await analyseAccessibility(
      { ai: noModel, allowHosts: ['127.0.0.1'], chromiumPath },
      `${server.origin}/low-contrast`,
    );
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
});
