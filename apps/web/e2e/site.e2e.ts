import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/axe';
import { BASE_PATH } from './support/product-server';
import { useScenario } from './support/scenario';
import {
  atRoute,
  chooseTheme,
  expectTheme,
  hidden,
  holdRequests,
  THEMES,
  visible,
} from './support/ui';

const repoRoot = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const CONSENT = 'myAppCookieConsent';
/** An address the offline GeoIP database places in a country (GB). */
const VISITOR_IP = '81.2.69.160';
const DAY_S = 24 * 60 * 60;

describe('site: contact form, cookie consent, alert banner, small screens', () => {
  // TRUST_PROXY lets the region lookup see the X-Forwarded-For header a scenario sets.
  const s = useScenario({ env: () => ({ TRUST_PROXY: 'true', CONTACT_TO: 'team@example.com' }) });
  const at = (route: string) => atRoute(s.page, BASE_PATH, route);

  /** Operator command of spec §2's banner, against this server's database. */
  async function alertCli(...args: string[]) {
    await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'apps/server/src/features/alerts/alert-cli.ts', ...args],
      { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', DATA_DIR: s.server.dataDir } },
    );
  }

  async function openContact() {
    await s.page.goto(s.server.url);
    await s.page.getByRole('button', { name: 'Contact', exact: true }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Contact Us' });
    await visible(dialog);
    return dialog;
  }

  it('refuses to send the contact form until the captcha is solved', async () => {
    const dialog = await openContact();
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await visible(dialog.getByText('Email is required'));
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Ada');
    await dialog.getByRole('textbox', { name: 'Email' }).fill('ada@example.com');
    await dialog.getByRole('textbox', { name: 'Message' }).fill('Hello there');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await visible(dialog.getByText('Please verify that you are not a robot.'));
    await visible(dialog.getByRole('button', { name: 'Submit' }));
  });

  it('sends the contact form once the ALTCHA proof of work is solved in the browser', async () => {
    const { page, server } = s;
    const dialog = await openContact();
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Ada Lovelace');
    await dialog.getByRole('textbox', { name: 'Email' }).fill('ada@example.com');
    const message = `Analytical engine question ${Date.now()}`;
    await dialog.getByRole('textbox', { name: 'Message' }).fill(message);

    // The widget fetches a challenge from the server and computes the proof of work.
    await dialog.getByRole('checkbox', { name: "I'm not a robot" }).click();
    await visible(dialog.getByText('Verified'), 'captcha verified', 30_000);

    // Hold the answer until the pending state has been seen.
    const release = await holdRequests(page, '**/api/contact');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await visible(dialog.getByRole('button', { name: 'Submitting...' }));
    expect(await dialog.getByRole('button', { name: 'Submitting...' }).isDisabled()).toBe(true);
    release();
    await visible(dialog.getByText('Thank you for contacting us! We will get back to you soon.'));
    await expect
      .poll(() => server.outbox().some((m) => m.includes(message)), { message: 'contact mail' })
      .toBe(true);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await hidden(dialog);
  });

  it('has no axe violations in the Contact Us dialog, in light and dark', async () => {
    for (const theme of THEMES) {
      await s.page.goto(s.server.url);
      await chooseTheme(s.page, theme);
      const dialog = await openContact();
      await expectTheme(s.page, theme);
      await dialog.getByRole('button', { name: 'Submit' }).click();
      await visible(dialog.getByText('Please verify that you are not a robot.'));
      await visible(dialog.getByRole('checkbox', { name: "I'm not a robot" }));
      await expectNoAxeViolations(s.page, `Contact Us dialog with errors (${theme})`);
    }
  });

  it('shows no cookie banner while the region is unknown', async () => {
    const region = s.page.waitForResponse((r) => r.url().endsWith('/api/region'));
    await s.page.goto(s.server.url);
    // The lookup answers (no console error, issue 29), with no country for a loopback visitor.
    const answer = await region;
    expect(answer.status()).toBe(200);
    expect(await answer.json()).toMatchObject({ country: null });
    await visible(s.page.getByRole('heading', { name: 'Hello!' }));
    expect(await s.page.getByRole('region', { name: 'Cookie consent' }).count()).toBe(0);
  });

  it('Accept stores myAppCookieConsent=true for about 365 days and hides the banner', async () => {
    const { page, context, server } = s;
    await context.setExtraHTTPHeaders({ 'X-Forwarded-For': VISITOR_IP });
    await page.goto(server.url);
    const banner = page.getByRole('region', { name: 'Cookie consent' });
    await visible(banner);
    // The banner can draw before the home page's lazy chunk: scan the page once it is whole.
    await visible(page.getByRole('heading', { name: 'Hello!' }));
    await expectNoAxeViolations(page, 'cookie banner (light)');
    await banner.getByRole('button', { name: 'Accept' }).click();
    await hidden(banner);
    const cookie = (await context.cookies()).find((c) => c.name === CONSENT);
    expect(cookie?.value).toBe('true');
    const days = (cookie!.expires - Date.now() / 1000) / DAY_S;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThanOrEqual(365.01);
    await page.reload();
    await visible(page.getByRole('heading', { name: 'Hello!' }));
    expect(await banner.count()).toBe(0);
  });

  it('Decline stores myAppCookieConsent=false for about 365 days, hides the banner, is remembered', async () => {
    const { page, context, server } = s;
    await context.setExtraHTTPHeaders({ 'X-Forwarded-For': VISITOR_IP });
    await page.goto(server.url);
    await chooseTheme(page, 'dark');
    await page.reload();
    const banner = page.getByRole('region', { name: 'Cookie consent' });
    await visible(banner);
    await visible(page.getByRole('heading', { name: 'Hello!' }));
    await expectNoAxeViolations(page, 'cookie banner (dark)');
    await banner.getByRole('button', { name: 'Decline' }).click();
    await hidden(banner);
    const cookie = (await context.cookies()).find((c) => c.name === CONSENT);
    expect(cookie?.value).toBe('false');
    const days = (cookie!.expires - Date.now() / 1000) / DAY_S;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThanOrEqual(365.01);
    await page.reload();
    await visible(page.getByRole('heading', { name: 'Hello!' }));
    expect(await banner.count()).toBe(0);
  });

  it('shows the operator alert under the top bar until the user closes it', async () => {
    const { page, server } = s;
    const message = 'Maintenance tonight at 22:00';
    await alertCli('--message', message, '--severity', 'warning', '--title', 'Heads up');
    try {
      for (const theme of THEMES) {
        await page.goto(server.url);
        await chooseTheme(page, theme);
        await page.reload();
        const alert = page.getByRole('alert').filter({ hasText: message });
        await visible(alert);
        await visible(alert.getByText('Heads up'));
        const box = await alert.boundingBox();
        expect(box!.y).toBeGreaterThanOrEqual(64);
        expect(
          await alert
            .getByText('Heads up')
            .evaluate((el) => Number(getComputedStyle(el).fontWeight)),
        ).toBeGreaterThanOrEqual(700);
        // The chat screen (lazy) and its heading may come after the banner: audit the whole page.
        await visible(page.getByRole('heading', { level: 1 }));
        await expectNoAxeViolations(page, `alert banner (${theme})`);
        await alert.getByRole('button', { name: 'Close alert' }).click();
        await hidden(alert);
      }
    } finally {
      await alertCli('--clear');
    }
  });

  it('small screen: guest icon menu, temporary drawer that closes after navigation', async () => {
    const { page, server } = s;
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(server.url);
    await visible(page.getByRole('heading', { name: 'Hello!' }));
    // No Login / Sign Up buttons in the bar: an icon menu instead.
    expect(await page.getByRole('banner').getByRole('link', { name: 'Login' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Login or sign up' }).click();
    await visible(page.getByRole('menuitem', { name: 'Sign Up' }));
    await expectNoAxeViolations(page, 'small screen guest menu (light)');
    await page.getByRole('menuitem', { name: 'Login' }).click();
    await at('login');

    const nav = page.getByRole('navigation', { name: 'Main' });
    await hidden(nav);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await visible(nav);
    expect((await nav.boundingBox())!.width).toBeCloseTo(240, 0);
    await expectNoAxeViolations(page, 'small screen drawer (light)');
    await nav.getByRole('link', { name: 'FAQ' }).click();
    await at('faq');
    await hidden(nav);
    await visible(page.getByRole('searchbox', { name: 'Search FAQs' }));

    await page.getByRole('button', { name: 'Open menu' }).click();
    await visible(nav);
    await nav.getByRole('button', { name: 'Contact', exact: true }).click();
    await hidden(nav);
    await visible(page.getByRole('dialog', { name: 'Contact Us' }));

    // The guest menu and the temporary drawer in dark.
    await chooseTheme(page, 'dark');
    await page.goto(server.url);
    await expectTheme(page, 'dark');
    await visible(page.getByRole('heading', { name: 'Hello!' }));
    await page.getByRole('button', { name: 'Login or sign up' }).click();
    await visible(page.getByRole('menuitem', { name: 'Sign Up' }));
    await expectNoAxeViolations(page, 'small screen guest menu (dark)');
    await page.keyboard.press('Escape');
    await hidden(page.getByRole('menuitem', { name: 'Sign Up' }));
    await page.getByRole('button', { name: 'Open menu' }).click();
    await visible(nav);
    await expectNoAxeViolations(page, 'small screen drawer (dark)');
  });
});
