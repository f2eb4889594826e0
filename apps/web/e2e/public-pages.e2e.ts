import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/axe';
import { useScenario } from './support/scenario';
import { chooseTheme, expectTheme, hidden, THEMES, visible } from './support/ui';

describe('public pages under a non-root base path', () => {
  const s = useScenario();

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

  it('shows the 404 page for unknown routes', async () => {
    await s.page.goto(`${s.server.url}no/such/page`);
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

  it('has no axe violations on any public screen, in light and dark', async () => {
    await s.page.goto(s.server.url);
    for (const theme of THEMES) {
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
    }
  });
});
