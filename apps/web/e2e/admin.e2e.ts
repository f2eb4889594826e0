import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/axe';
import { uploadViaApi } from './support/files';
import { BASE_PATH } from './support/product-server';
import { useScenario } from './support/scenario';
import {
  atRoute,
  chooseTheme,
  decodeQuotedPrintable,
  expectTheme,
  hidden,
  THEMES,
  visible,
} from './support/ui';
import {
  loginViaApi,
  newUser,
  openSignedIn,
  registerViaApi,
  signedInAsNewUser,
  type TestUser,
  type Tokens,
} from './support/users';

const OPERATOR: TestUser = {
  firstName: 'Olive',
  lastName: 'Operator',
  email: 'ops@example.com',
  password: 'operator-secret-pw',
};

describe('admin: the operators’ page', () => {
  // Operators by ADMIN_EMAILS; example.com signs up freely (newUser's addresses), others by
  // invitation only.
  const s = useScenario({
    env: () => ({
      ADMIN_EMAILS: OPERATOR.email,
      REGISTRATION: 'domain',
      REGISTRATION_DOMAINS: 'example.com',
    }),
  });
  const at = (route: string) => atRoute(s.page, BASE_PATH, route);
  let operatorTokens: Tokens | undefined;
  /** Signs the operator in (registering them on first use) and opens `route`. */
  async function asOperator(route = 'admin') {
    operatorTokens ??= await registerViaApi(s.server, OPERATOR);
    await openSignedIn(s.page, s.server, operatorTokens, route);
  }
  const row = (email: string) => s.page.getByRole('row').filter({ hasText: email });

  it('opens from the account menu and lists every account with its activity', async () => {
    const { page, server } = s;
    const member = newUser('Grace');
    const tokens = await registerViaApi(server, member);
    await uploadViaApi(server, tokens.access_token, 'notes.txt', 'x'.repeat(3000));
    await asOperator('');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Admin' }).click();
    await at('admin');
    await visible(page.getByRole('heading', { name: 'Admin', level: 1 }));
    const grace = row(member.email);
    await visible(grace);
    expect(await grace.getByRole('cell').allInnerTexts()).toEqual([
      expect.stringContaining(member.email),
      'user',
      expect.stringMatching(/\d/),
      expect.stringMatching(/\d/),
      '1',
      '2.9 KB',
      '0',
      'Active',
      expect.stringMatching(/^disable\s+delete$/i),
    ]);
    await visible(row(OPERATOR.email).getByText('You'));
    const service = page.getByRole('region', { name: 'Service' });
    await visible(service.getByText(/unavailable/));
    await visible(service.getByText(/allowed domains, others by invitation: example\.com/));
    // How far the index of questions across files is (Grace's file among them).
    await visible(service.getByText(/^\d[\d,]* of [1-9][\d,]* files searchable/));
  });

  it('disables an account (its open session stops at once), enables it, deletes it', async () => {
    const { page, server } = s;
    const member = newUser('Target');
    const tokens = await registerViaApi(server, member);
    const profile = () =>
      fetch(`${server.url}api/user`, {
        headers: { Authorization: `Bearer ${tokens.access_token}` },
      });
    expect((await profile()).status).toBe(200);
    await asOperator();

    await row(member.email)
      .getByRole('button', { name: `Disable ${member.email}` })
      .click();
    await visible(row(member.email).getByText('Disabled'));
    expect((await profile()).status).toBe(401);
    expect((await loginViaApi(server, member.email, member.password)).status).toBe(403);

    await row(member.email)
      .getByRole('button', { name: `Enable ${member.email}` })
      .click();
    await visible(row(member.email).getByText('Active'));
    expect((await loginViaApi(server, member.email, member.password)).status).toBe(200);

    await row(member.email)
      .getByRole('button', { name: `Delete ${member.email}` })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Delete this account?' });
    await visible(dialog.getByText(member.email, { exact: false }));
    await dialog.getByRole('button', { name: 'Delete account' }).click();
    await hidden(dialog);
    await visible(page.getByText('The account has been deleted.'));
    await hidden(row(member.email));
    expect((await loginViaApi(server, member.email, member.password)).status).toBe(401);
  });

  it('invites an address outside the domains; the mailed link signs it up', async () => {
    const { page, server } = s;
    const guest = { ...newUser('Guest'), email: `guest-${Date.now()}@elsewhere.test` };
    await asOperator();
    const invitations = page.getByRole('region', { name: 'Invitations' });
    await invitations.getByRole('textbox', { name: 'Email to invite' }).fill(guest.email);
    await invitations.getByRole('button', { name: 'Send invitation' }).click();
    await visible(invitations.getByText(`Invitation sent to ${guest.email}.`, { exact: false }));
    const shown = await invitations.getByRole('textbox', { name: 'Invitation link' }).inputValue();

    let mail = '';
    await expect
      .poll(() => (mail = server.outbox().find((m) => m.includes(guest.email)) ?? ''), {
        message: 'invitation in the outbox',
      })
      .not.toBe('');
    const link = /https?:\/\/\S+\/register\?invite=\S+/.exec(decodeQuotedPrintable(mail))?.[0];
    expect(link).toBe(shown);

    // A new visitor opens the link (the mail names PUBLIC_URL; the test server has its own port).
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${server.url}register${new URL(link!).search}`);
    await visible(page.getByText(/signing up with an invitation/));
    expect(await page.getByRole('textbox', { name: 'Email' }).inputValue()).toBe(guest.email);
    await page.getByRole('textbox', { name: 'First name' }).fill(guest.firstName);
    await page.getByLabel(/^Password/).fill(guest.password);
    await page.getByLabel(/^Confirm password/).fill(guest.password);
    await page.getByRole('checkbox', { name: /I agree to the/ }).check();
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
    await at('');
    await visible(page.getByRole('heading', { name: `Hello, ${guest.firstName}!` }));
  });

  it('shows a banner to every visitor, and clears it', async () => {
    const { page, server } = s;
    await asOperator();
    const form = page.getByRole('region', { name: 'Alert banner' });
    await form.getByRole('combobox', { name: 'Severity' }).click();
    await page.getByRole('option', { name: 'warning' }).click();
    await form.getByRole('textbox', { name: 'Title (optional)' }).fill('Heads up');
    await form.getByRole('textbox', { name: 'Message' }).fill('Maintenance at 18:00');
    await form.getByRole('button', { name: 'Show banner' }).click();
    await visible(page.getByText('The banner is shown to every visitor.'));

    const visitor = await s.browser.newPage();
    try {
      await visitor.goto(server.url);
      const banner = visitor.getByRole('alert').filter({ hasText: 'Maintenance at 18:00' });
      await visible(banner);
      await visible(banner.getByText('Heads up'));
    } finally {
      await visitor.close();
    }

    await form.getByRole('button', { name: 'Clear banner' }).click();
    await visible(form.getByText('No banner is shown.'));
    const latest = await (await fetch(`${server.url}api/alerts/latest`)).json();
    expect(latest.isVisible).toBe(false);
  });

  it('shows the 404 page at /admin to visitors and to signed-in users who are not operators', async () => {
    const { page, server } = s;
    await page.goto(`${server.url}admin`);
    await visible(page.getByRole('heading', { name: '404 - Page Not Found' }));
    await at('admin');

    await signedInAsNewUser(page, server, 'admin');
    await visible(page.getByRole('heading', { name: '404 - Page Not Found' }));
    await page.getByRole('button', { name: 'Account menu' }).click();
    await visible(page.getByRole('menuitem', { name: 'Logout' }));
    expect(await page.getByRole('menuitem', { name: 'Admin' }).count()).toBe(0);
  });

  it('has no axe violations on the Admin page and its dialog, in light and dark', async () => {
    const { page, server } = s;
    const member = newUser('Axe');
    await registerViaApi(server, member);
    await asOperator();
    for (const theme of THEMES) {
      await chooseTheme(page, theme);
      await page.goto(`${server.url}admin`);
      await expectTheme(page, theme);
      await visible(row(member.email));
      await expectNoAxeViolations(page, `/admin (${theme})`);

      const invitations = page.getByRole('region', { name: 'Invitations' });
      await invitations.getByRole('button', { name: 'Send invitation' }).click();
      await visible(invitations.getByText('Email is required'));
      await expectNoAxeViolations(page, `/admin with a form error (${theme})`);

      await row(member.email)
        .getByRole('button', { name: `Delete ${member.email}` })
        .click();
      await visible(page.getByRole('dialog', { name: 'Delete this account?' }));
      await expectNoAxeViolations(page, `delete-account dialog of /admin (${theme})`);
      await page.keyboard.press('Escape');
      await hidden(page.getByRole('dialog', { name: 'Delete this account?' }));

      await page.getByRole('button', { name: 'Account menu' }).click();
      await visible(page.getByRole('menuitem', { name: 'Admin' }));
      await expectNoAxeViolations(page, `account menu of an operator (${theme})`);
      await page.keyboard.press('Escape');
    }
  });
});
