import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/axe';
import { collectConsoleErrors } from './support/console';
import { openMyFiles, uploadViaApi } from './support/files';
import { useScenario } from './support/scenario';
import { visible } from './support/ui';
import { signedInAsNewUser } from './support/users';

/** Issue 29: with no model at all, the actions that need one are disabled and say why. */
async function fileMenu(page: Page, fileName: string) {
  const drawer = await openMyFiles(page);
  await drawer.getByRole('button', { name: `Actions for ${fileName}` }).click();
  const menu = page.getByRole('menu', { name: `Actions for ${fileName}` });
  await visible(menu);
  return menu;
}

describe('told: without a model', () => {
  const s = useScenario();
  let consoleErrors: () => string[];
  beforeEach(() => {
    consoleErrors = collectConsoleErrors(s.page);
  });
  afterEach(() => expect(consoleErrors()).toEqual([]));

  it('disables the actions that need a model, saying why', async () => {
    const { page, server } = s;
    const { tokens } = await signedInAsNewUser(page, server);
    await uploadViaApi(server, tokens.access_token, 'notes.txt', 'Some notes.');
    const menu = await fileMenu(page, 'notes.txt');
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
