import type { Page } from 'playwright-core';
import {
  Document,
  HeadingLevel,
  LevelFormat,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
} from 'docx';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MODEL_UNAVAILABLE_MESSAGE } from '@inkwell/contract';
import { makeXlsx } from '../../server/src/features/files/reader/test-fixtures';
import { expectNoAxeViolations } from './support/axe';
import { newContext } from './support/browser';
import { collectConsoleErrors } from './support/console';
import { openFileMenu, pickFile, uploadViaApi } from './support/files';
import { BASE_PATH } from './support/product-server';
import { useScenario } from './support/scenario';
import { atRoute, chooseTheme, hidden, THEMES, visible } from './support/ui';
import {
  newUser,
  openSignedIn,
  registerViaApi,
  signedInAsNewUser,
  type TestUser,
  type Tokens,
} from './support/users';

/**
 * Issue 29: the web app tells people what is happening, in their words. Every page the 'told'
 * tests open is checked for console errors: there must be none.
 */
const conversation = (page: Page) =>
  page.getByRole('log', { name: 'Conversation' }).getByRole('article');

const OPERATOR: TestUser = {
  firstName: 'Olive',
  lastName: 'Operator',
  email: 'ops-told@example.com',
  password: 'operator-secret-pw',
};

/** A Word document with headings, a numbered list and a table. */
async function structuredDocx(): Promise<Buffer> {
  const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });
  return Packer.toBuffer(
    new Document({
      numbering: {
        config: [
          { reference: 'n', levels: [{ level: 0, format: LevelFormat.DECIMAL, text: '%1.' }] },
        ],
      },
      sections: [
        {
          children: [
            new Paragraph({ text: 'Harbour report', heading: HeadingLevel.HEADING_1 }),
            new Paragraph('The keepers met on Monday.'),
            new Paragraph({ text: 'Paint the tower', numbering: { reference: 'n', level: 0 } }),
            new Table({ rows: [new TableRow({ children: [cell('Item'), cell('Cost')] })] }),
          ],
        },
      ],
    }),
  );
}

/** The operator of the console-error scenarios, who signs up there. */
const CONSOLE_OPERATOR = newUser('Olive');

/**
 * Scenarios of a server with a model and operators, sharing one server and one browser: starting
 * them is most of a small scenario's time. A model, so the server starts without loading the
 * embedded one (public-pages.e2e.ts has none).
 */
const s = useScenario({
  ai: {},
  env: () => ({ ADMIN_EMAILS: `${CONSOLE_OPERATOR.email},${OPERATOR.email}` }),
});

/** Console errors and uncaught exceptions of a page, from now on (none let through). */
function collectAllConsoleErrors(page: Page): string[] {
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

// First, on the fresh server (no banner, no other account yet), as when they had one of their own.
describe('no console error on any page', () => {
  it('on every public page, signed out', async () => {
    const errors = collectAllConsoleErrors(s.page);
    await visitAll(s.page, s.server.url, [
      ['', 'Instant Translation'],
      ['faq', 'Search FAQs'],
      ['about', 'GET STARTED'],
      ['login', 'Sign In'],
      ['register', 'Sign Up'],
      ['reset-password', 'Request Reset Link'],
      ['no/such/page', '404 - Page Not Found'],
    ]);
    // An unknown page is answered 404 (the app's Not Found page with it): Chromium logs that
    // status of the page itself, which is what it says, not an error of the app.
    const notFound = `${s.server.url}no/such/page`;
    expect(
      errors.filter((e) => !(e.startsWith(`${notFound}: `) && /status of 404/.test(e))),
    ).toEqual([]);
  });

  it('on every page, signed in as an operator', async () => {
    const tokens = await registerViaApi(s.server, CONSOLE_OPERATOR);
    const errors = collectAllConsoleErrors(s.page);
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

describe('told: errors, results and layout', () => {
  let operator: Tokens | undefined;
  const operatorTokens = async () => (operator ??= await registerViaApi(s.server, OPERATOR));
  let consoleErrors: () => string[];
  beforeEach(() => {
    consoleErrors = collectConsoleErrors(s.page);
  });
  afterEach(() => expect(consoleErrors()).toEqual([]));

  it('says the server’s words when a page cannot be analysed, and the size limit of a file', async () => {
    const { page, server } = s;
    await signedInAsNewUser(page, server);
    await page.getByRole('button', { name: 'Add URL' }).click();
    await page.getByRole('textbox', { name: 'Web page address' }).fill('http://127.0.0.2/');
    await page.getByRole('button', { name: 'Analyze' }).click();
    const dialog = page.getByRole('dialog', { name: 'Select Action for URL' });
    await dialog.getByRole('button', { name: 'SEO Analysis' }).click();
    await visible(
      conversation(page).filter({
        hasText:
          /Failed to perform analysis due to an error\. Refused to fetch the page: 127\.0\.0\.2 is a loopback address/,
      }),
      'the refusal in the server’s words',
      30_000,
    );
    await pickFile(page.getByRole('button', { name: 'Upload file' }), {
      name: 'huge.txt',
      mimeType: 'text/plain',
      buffer: Buffer.alloc(2 * 1024 * 1024 + 1, 'a'),
    });
    await visible(
      page.getByRole('alert').filter({
        hasText: 'File size exceeds the allowed limit. Text files can be at most 2 MB.',
      }),
    );
  });

  it('keeps a docx’s headings, lists and tables in its preview', async () => {
    const { page, server } = s;
    const { tokens } = await signedInAsNewUser(page, server);
    await uploadViaApi(server, tokens.access_token, 'report.docx', await structuredDocx());
    const menu = await openFileMenu(page, 'report.docx');
    await menu.getByRole('menuitem', { name: 'Open' }).click();
    const preview = page.getByRole('dialog', { name: /report\.docx/ });
    await visible(
      preview.getByRole('heading', { name: 'Harbour report', level: 3 }),
      'heading',
      20_000,
    );
    await visible(preview.getByRole('listitem').filter({ hasText: 'Paint the tower' }));
    await visible(preview.getByRole('cell', { name: 'Cost' }));
    await expectNoAxeViolations(page, 'docx preview');
  });

  it('scores each sheet of a workbook in its own column', async () => {
    const { page, server } = s;
    const { tokens } = await signedInAsNewUser(page, server);
    const book = await makeXlsx({
      Reviews: [
        ['id', 'Comment'],
        ['1', 'I love this lamp, it is wonderful!'],
      ],
      Cover: [['Quarterly report'], ['Prepared by Ada']],
      Survey: [
        ['who', 'Feedback'],
        ['Bob', 'Terrible, the light broke.'],
      ],
    });
    await uploadViaApi(server, tokens.access_token, 'book.xlsx', book);
    const menu = await openFileMenu(page, 'book.xlsx');
    await menu.getByRole('menuitem', { name: 'Sentiment Analysis' }).click();
    const result = conversation(page).filter({ hasText: 'Overall:' });
    await visible(result, 'sentiment result', 30_000);
    await visible(
      result.getByText(/sheet “Reviews”, column “Comment”; sheet “Survey”, column “Feedback”/),
    );
    expect(await result.getByText('Prepared by Ada').count()).toBe(0);
  });

  it('tells a disabled account why it was signed out', async () => {
    const { page, server } = s;
    const { user } = await signedInAsNewUser(page, server);
    const token = (await operatorTokens()).access_token;
    const auth = { Authorization: `Bearer ${token}` };
    const users = (await (
      await fetch(`${server.url}api/admin/users`, { headers: auth })
    ).json()) as {
      users: { id: number; email: string }[];
    };
    const id = users.users.find((u) => u.email === user.email)!.id;
    expect(
      (await fetch(`${server.url}api/admin/users/${id}/disable`, { method: 'POST', headers: auth }))
        .status,
    ).toBe(200);
    // The next request of the open page is refused: the app signs out and says why.
    await page.goto(`${server.url}account`);
    await atRoute(page, BASE_PATH, 'login');
    await visible(page.getByText(/^This account has been disabled/));
    // The refused access and refresh tokens are the server's answers (Chromium logs each 401):
    // they and nothing else.
    const errors = consoleErrors().splice(0);
    expect(errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
  });

  it('asks the password to delete an account and ends on a page that says it is done', async () => {
    const { page, server } = s;
    const { user } = await signedInAsNewUser(page, server, 'account');
    await page.getByRole('button', { name: 'Delete your account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await visible(dialog);
    expect(await dialog.getByRole('button', { name: 'Delete account' }).isDisabled()).toBe(true);
    await dialog.getByLabel('Current password').fill(user.password);
    await dialog.getByRole('button', { name: 'Delete account' }).click();
    await atRoute(page, BASE_PATH, 'register');
    await visible(
      page.getByText('Your account has been deleted, with your files and chat history.'),
    );
  });

  it('fits the Admin page on a 390 px phone, in both themes, with every action reachable', async () => {
    const { server, browser } = s;
    const context = await newContext(browser, { viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const errors = collectConsoleErrors(page);
    try {
      await registerViaApi(server, newUser('Grace'));
      await openSignedIn(page, server, await operatorTokens(), 'admin');
      await visible(page.getByRole('heading', { name: 'Admin', level: 1 }));
      const users = page.getByRole('list', { name: 'Users' });
      await visible(users);
      for (const theme of THEMES) {
        await chooseTheme(page, theme);
        const { scrollWidth, innerWidth } = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          innerWidth: window.innerWidth,
        }));
        expect(scrollWidth, theme).toBeLessThanOrEqual(innerWidth);
        const disable = users.getByRole('button', { name: /^Disable / }).first();
        await visible(disable);
        const box = (await disable.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(innerWidth);
        await expectNoAxeViolations(page, `admin at 390 px (${theme})`);
      }
      expect(errors()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('pushes the conversation down under the operator’s banner instead of covering it', async () => {
    const { page, server } = s;
    const { access_token } = await operatorTokens();
    const put = await fetch(`${server.url}api/admin/alert`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${access_token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ message: 'Maintenance tonight at 22:00.', title: 'Heads up' }),
    });
    expect(put.status).toBe(200);
    await signedInAsNewUser(page, server);
    const banner = page.getByRole('alert').filter({ hasText: 'Maintenance tonight at 22:00.' });
    await visible(banner);
    const welcome = page.getByRole('heading', { name: /^Hello, / });
    await visible(welcome);
    const [b, w] = [(await banner.boundingBox())!, (await welcome.boundingBox())!];
    expect(w.y).toBeGreaterThanOrEqual(b.y + b.height);
    // Scrolled, the banner goes with the page rather than staying over the messages.
    expect(await banner.evaluate((el) => getComputedStyle(el.parentElement!).position)).toBe(
      'static',
    );
    await page.getByRole('button', { name: 'Close alert' }).click();
    await hidden(banner);
  });
});

// Last: it stops the model (and starts it again).
describe('a model server that goes down', () => {
  it('answers the question at once with the reason in the chat, and the banner says so', async () => {
    await signedInAsNewUser(s.page, s.server);
    const box = s.page.getByRole('textbox', { name: 'Message' });
    await box.fill('hello model');
    await box.press('Enter');
    const log = s.page.getByRole('log', { name: 'Conversation' });
    await visible(log.getByText('You said: hello model'));

    await s.ai.stop();
    await box.fill('are you still there?');
    await box.press('Enter');
    await visible(log.getByText('are you still there?'));
    await visible(log.getByText(MODEL_UNAVAILABLE_MESSAGE));
    expect(await log.getByText('Loading...').count()).toBe(0);
    // The banner above the input follows (the status is asked again after the failure).
    await visible(s.page.getByRole('status').filter({ hasText: MODEL_UNAVAILABLE_MESSAGE }));

    await s.ai.restart();
    await expect
      .poll(
        () => s.page.getByRole('status').filter({ hasText: MODEL_UNAVAILABLE_MESSAGE }).count(),
        {
          timeout: 45_000,
        },
      )
      .toBe(0);
  }, 90_000);
});
