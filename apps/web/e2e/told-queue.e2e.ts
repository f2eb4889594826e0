import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AI_MARK, startProductAi, type OpenAITestServer } from './support/ai';
import { newContext } from './support/browser';
import { collectConsoleErrors } from './support/console';
import { openFileMenu, uploadViaApi } from './support/files';
import { startHeldAi, type HeldAi } from './support/held-ai';
import { useScenario } from './support/scenario';
import { visible } from './support/ui';
import { signedInAsNewUser } from './support/users';

/**
 * Issue 29, progress: the queue line goes to the one who waits, and Ask Questions is in the file
 * menu. Every page these tests open is checked for console errors: there must be none.
 */
const conversation = (page: Page) =>
  page.getByRole('log', { name: 'Conversation' }).getByRole('article');

describe('told: with a model that one request at a time can use', () => {
  let ai: OpenAITestServer;
  let gate: HeldAi;
  const s = useScenario({
    env: async () => {
      ai = await startProductAi();
      gate = await startHeldAi(ai.url);
      return { AI_BASE_URL: gate.url, AI_PARALLEL: '1' };
    },
  });
  afterAll(async () => {
    await gate?.close();
    await ai?.close();
  });
  let consoleErrors: () => string[];
  beforeEach(() => {
    consoleErrors = collectConsoleErrors(s.page);
  });
  afterEach(() => expect(consoleErrors()).toEqual([]));

  it('tells the one who waits how many requests go before theirs, not the one served', async () => {
    const { page: adaPage, server, browser } = s;
    const { tokens: ada } = await signedInAsNewUser(adaPage, server, '', 'Ada');
    await uploadViaApi(
      server,
      ada.access_token,
      'long.txt',
      'The harbour has three lights. '.repeat(40),
    );
    const bobContext = await newContext(browser);
    const bobPage = await bobContext.newPage();
    const bobErrors = collectConsoleErrors(bobPage);
    try {
      const { tokens: bob } = await signedInAsNewUser(bobPage, server, '', 'Bob');
      await uploadViaApi(server, bob.access_token, 'short.txt', 'A short note about the lamp.');

      // Ada's call reaches the model and is held there: it runs, nobody goes before hers.
      await (
        await openFileMenu(adaPage, 'long.txt')
      )
        .getByRole('menuitem', { name: 'Summarize' })
        .click();
      await expect
        .poll(() => gate.held(), { message: "Ada's call at the model", timeout: 30_000 })
        .toBe(1);
      await (
        await openFileMenu(bobPage, 'short.txt')
      )
        .getByRole('menuitem', { name: 'Summarize' })
        .click();

      const bobStep = conversation(bobPage).filter({
        hasText: 'Starting Summarize for short.txt...',
      });
      await visible(bobStep.getByText(/^1 request goes before yours/), "Bob's queue line", 20_000);
      await visible(bobStep.getByText(/waiting to start part 1 of 1/));
      const adaStep = conversation(adaPage).filter({
        hasText: 'Starting Summarize for long.txt...',
      });
      await visible(adaStep.getByText(/part 1 of 1/));
      expect(await adaStep.getByText(/goes? before yours/).count()).toBe(0);

      gate.open();
      await visible(conversation(adaPage).filter({ hasText: AI_MARK.summary }), 'Ada done', 30_000);
      await visible(conversation(bobPage).filter({ hasText: AI_MARK.summary }), 'Bob done', 30_000);
      expect(bobErrors()).toEqual([]);
    } finally {
      await bobContext.close();
    }
  });

  it('offers Ask Questions after Summarize, which starts the question mode', async () => {
    const { page, server } = s;
    gate.open();
    const { tokens } = await signedInAsNewUser(page, server);
    await uploadViaApi(server, tokens.access_token, 'keepers.txt', 'The keeper is named Ada.');
    const menu = await openFileMenu(page, 'keepers.txt');
    const items = await menu.getByRole('menuitem').allTextContents();
    expect(items.indexOf('Ask Questions')).toBe(items.indexOf('Summarize') + 1);
    await menu.getByRole('menuitem', { name: 'Ask Questions' }).click();
    await visible(
      conversation(page).filter({ hasText: 'Go ahead and ask questions about keepers.txt...' }),
    );
    await page.getByRole('textbox', { name: 'Message' }).fill('Who keeps the light?');
    await page.getByRole('button', { name: 'Send' }).click();
    await visible(conversation(page).filter({ hasText: AI_MARK.answer }), 'the answer', 30_000);
  });
});
