import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useScenario } from './support/scenario';
import { newUser, openSignedIn, registerViaApi } from './support/users';

/** Console errors and uncaught exceptions of a page, from now on. */
function collectConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
  return errors;
}

/** Opens each route, waits for its text and for the network to settle. */
async function visitAll(page: Page, base: string, routes: [string, string][]) {
  for (const [route, text] of routes) {
    await page.goto(`${base}${route}`, { waitUntil: 'networkidle' });
    await expect
      .poll(async () => (await page.content()).includes(text), { message: route, timeout: 10_000 })
      .toBe(true);
    await page.waitForLoadState('networkidle');
  }
}

describe('no console error on any page', () => {
  const operator = newUser('Olive');
  const s = useScenario({ ai: {}, env: () => ({ ADMIN_EMAILS: operator.email }) });

  it('on every public page, signed out', async () => {
    const errors = collectConsoleErrors(s.page);
    await visitAll(s.page, s.server.url, [
      ['', 'Instant Translation'],
      ['faq', 'Search FAQs'],
      ['about', 'GET STARTED'],
      ['login', 'Sign In'],
      ['register', 'Sign Up'],
      ['reset-password', 'Request Reset Link'],
      ['no/such/page', '404 - Page Not Found'],
    ]);
    expect(errors).toEqual([]);
  });

  it('on every page, signed in as an operator', async () => {
    const tokens = await registerViaApi(s.server, operator);
    const errors = collectConsoleErrors(s.page);
    await openSignedIn(s.page, s.server, tokens);
    await visitAll(s.page, s.server.url, [
      ['', 'Instant Translation'],
      ['account', 'Your account'],
      ['admin', 'Sign-up'],
      ['faq', 'Search FAQs'],
      ['about', 'GET STARTED'],
    ]);
    expect(errors).toEqual([]);
  });
});
