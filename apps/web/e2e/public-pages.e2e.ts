import { chromium, type Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS } from '../../server/src/features/analysis/browser/chromium-flags';
import { expectNoAxeViolations } from './support/axe';
import { CHROMIUM, newContext, saveFailure } from './support/browser';
import { collectConsoleErrors } from './support/console';
import { openFileMenu, uploadViaApi } from './support/files';
import { useScenario } from './support/scenario';
import { chooseTheme, expectTheme, hidden, THEMES, visible } from './support/ui';
import { signedInAsNewUser } from './support/users';

/**
 * Scenarios of a server in its default settings (no model, no operator), sharing one server and
 * one browser: starting them is most of a small scenario's time.
 */
const s = useScenario();

describe('public pages under a non-root base path', () => {
  it('serves the chat home with the welcome and a disabled input for visitors', async () => {
    await s.page.goto(s.server.url);
    await expect.poll(() => s.page.getByText('Instant Translation').isVisible()).toBe(true);
    for (const card of ['Content Analysis', 'AI Assistance', 'Proofread or Summarize']) {
      expect(await s.page.getByText(card).first().isVisible(), card).toBe(true);
    }
    expect(await s.page.getByText('AI responses may display inaccurate info.').isVisible()).toBe(
      true,
    );
  });

  it('deep-links and reloads every public route', async () => {
    for (const [route, text] of [
      ['faq', 'Search FAQs'],
      ['about', 'GET STARTED'],
      ['login', 'Sign In'],
      ['register', 'Sign Up'],
      ['reset-password', 'Request Reset Link'],
    ] as const) {
      await s.page.goto(`${s.server.url}${route}`);
      await s.page.reload();
      await expect
        .poll(async () => (await s.page.content()).includes(text), {
          message: route,
          timeout: 10_000,
        })
        .toBe(true);
    }
  });

  it('shows the 404 page for unknown routes, answered with HTTP 404', async () => {
    const response = await s.page.goto(`${s.server.url}no/such/page`);
    expect(response?.status()).toBe(404);
    await expect.poll(() => s.page.getByText('404 - Page Not Found').isVisible()).toBe(true);
    expect(await s.page.getByText('The page you are looking for does not exist.').isVisible()).toBe(
      true,
    );
  });

  it('filters the FAQ case-insensitively and says when nothing matches', async () => {
    await s.page.goto(`${s.server.url}faq`);
    const search = s.page.getByRole('searchbox', { name: 'Search FAQs' });
    const question = (text: string) => s.page.getByRole('button', { name: text, exact: true });
    const sizes = question('Which files can I upload, and how large can they be?');
    const storage = question('How much storage do I have?');
    // Unfiltered, every question is listed.
    await visible(sizes);
    await visible(storage);
    await visible(question('What is Inkwell?'));

    await search.fill('MEGABYTES-THAT-DO-NOT-EXIST');
    await expect.poll(() => s.page.getByText('No results found.').isVisible()).toBe(true);
    await hidden(sizes);

    // "10 MB" is only in the answer about file sizes (upper case there).
    await search.fill('10 mb');
    await expect.poll(() => s.page.getByText('No results found.').isVisible()).toBe(false);
    await visible(sizes);
    await hidden(storage);
    await hidden(question('What is Inkwell?'));

    // A word of a question, in another case, matches that question.
    await search.fill('STORAGE');
    await visible(storage);
    await hidden(sizes);
  });

  it('serves the static terms and privacy pages', async () => {
    for (const page of ['terms.html', 'privacy.html']) {
      const res = await s.page.goto(`${s.server.url}${page}`);
      expect(res?.status(), page).toBe(200);
      expect(await s.page.locator('h1').count(), page).toBeGreaterThan(0);
    }
  });

  it('switches between light and dark themes and remembers the choice', async () => {
    await s.page.goto(s.server.url);
    const bg = () => s.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await expect.poll(bg).toBe('rgb(255, 255, 255)');
    await s.page.getByRole('button', { name: 'Change theme' }).click();
    await expect.poll(bg).toBe('rgb(18, 18, 18)');
    await s.page.reload();
    await expect.poll(bg).toBe('rgb(18, 18, 18)');
  });

  // One test a theme: both in one ran close to the time limit on a busy 2-core machine.
  it.each(THEMES)('has no axe violations on any public screen, in the %s theme', async (theme) => {
    await s.page.goto(s.server.url);
    await chooseTheme(s.page, theme);
    for (const [route, text] of [
      ['', 'Instant Translation'],
      ['login', 'Sign in'],
      ['register', 'Sign Up'],
      ['reset-password', 'Reset Password'],
      ['reset-password?token=abc', 'Set New Password'],
      ['faq', 'Search FAQs'],
      ['about', 'GET STARTED'],
      ['nope', '404 - Page Not Found'],
    ] as const) {
      await s.page.goto(`${s.server.url}${route}`);
      await expectTheme(s.page, theme);
      await visible(s.page.getByText(text, { exact: true }).first(), `/${route}`);
      // The header has a "Sign Up" button too: wait for the lazily loaded page's own heading.
      await visible(s.page.getByRole('heading', { level: 1 }).first(), `/${route} heading`);
      await expectNoAxeViolations(s.page, `/${route} (${theme})`);
    }
  });
});

/** Issue 29: with no model at all, the actions that need one are disabled and say why. */
describe('told: without a model', () => {
  let consoleErrors: () => string[];
  beforeEach(() => {
    consoleErrors = collectConsoleErrors(s.page);
  });
  afterEach(() => expect(consoleErrors()).toEqual([]));

  it('disables the actions that need a model, saying why', async () => {
    const { page, server } = s;
    const { tokens } = await signedInAsNewUser(page, server);
    await uploadViaApi(server, tokens.access_token, 'notes.txt', 'Some notes.');
    const menu = await openFileMenu(page, 'notes.txt');
    for (const name of ['Summarize', 'Ask Questions', 'Translate']) {
      const item = menu.getByRole('menuitem', { name: new RegExp(`^${name}`) });
      expect(await item.getAttribute('aria-disabled'), name).toBe('true');
      await visible(item.getByText('Needs a language model; none is available now.'));
    }
    expect(
      await menu.getByRole('menuitem', { name: 'Proofread' }).getAttribute('aria-disabled'),
    ).toBeNull();
    await expectNoAxeViolations(page, 'file menu without a model');
  });
});

/** A made-up name of the machine on a team's network; the browser maps it to loopback. */
const HOST_NAME = 'inkwell.lan';

/**
 * A team reaches the server by the machine's name over plain HTTP (the default HOST answers every
 * name). The page must render there: a policy that upgrades requests to https would leave it white.
 */
describe('the app over plain HTTP by a host name other than localhost', () => {
  let browser: Browser;
  beforeAll(async () => {
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
  });

  it('renders the sign-in page with every asset loaded over http', async () => {
    const url = new URL(`${s.server.url}login`);
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
