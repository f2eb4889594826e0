import { describe, expect, it } from 'vitest';
import { chooserOpenedBy, uploadViaApi } from './support/files';
import { expectFocus, expectFocusWithin, focused, pressUntilFocused } from './support/focus';
import { BASE_PATH } from './support/product-server';
import { useScenario } from './support/scenario';
import { atRoute, BACKGROUND, hidden, visible } from './support/ui';
import { newUser, registerViaApi, signedInAsNewUser } from './support/users';

/**
 * Keyboard-only journeys: every step is a key press (page.keyboard), never a click, and each
 * step checks where focus landed (role and accessible name, as assistive technology reads them)
 * and that the focus is visible.
 */
describe('keyboard only: skip link, sign in, menus, chat, files, dialogs, theme', () => {
  const s = useScenario({ ai: {} });
  const at = (route: string) => atRoute(s.page, BASE_PATH, route);
  const key = (k: string) => s.page.keyboard.press(k);
  const background = () => s.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  /**
   * The chat's input bar is there (enabled when signed in): a Tab pressed from the main content
   * before it renders finds nothing focusable after it and wraps round to the skip link.
   */
  const inputBarReady = async (signedIn: boolean) => {
    const field = s.page.getByRole('textbox', { name: 'Message' });
    await visible(field);
    await expect.poll(() => field.isEnabled(), { message: 'Message field enabled' }).toBe(signedIn);
  };

  it('Tab reaches the skip link first; it moves focus to the main content', async () => {
    const { page, server } = s;
    await page.goto(server.url);
    await visible(page.getByRole('heading', { name: 'Hello!' }));
    await inputBarReady(false);
    await key('Tab');
    await expectFocus(page, 'link', 'Skip to main content');
    await key('Enter');
    await expectFocus(page, 'main', '', { visibleFocus: false });
    // The next Tab continues inside the main content, not back in the top bar or the drawer.
    await key('Tab');
    const inMain = await page.evaluate(() => {
      const el = document.activeElement;
      return Boolean(el && el.tagName !== 'MAIN' && el.closest('main'));
    });
    expect(inMain, `focus after the skip link: ${JSON.stringify(await focused(page))}`).toBe(true);
  });

  it('signs in with Tab, typing and Enter, then opens Account from the account menu', async () => {
    const { page, server } = s;
    const user = newUser('Keys');
    await registerViaApi(server, user);
    await page.goto(`${server.url}login`);
    await visible(page.getByRole('heading', { name: 'Sign in' }));
    await key('Tab');
    await expectFocus(page, 'link', 'Skip to main content');
    await key('Enter');
    await key('Tab');
    await expectFocus(page, 'textbox', /^Email/);
    await page.keyboard.type(user.email);
    await key('Tab');
    await expectFocus(page, 'textbox', /^Password/);
    await page.keyboard.type(user.password);
    await key('Enter');
    await at('');
    await visible(page.getByRole('heading', { name: `Hello, ${user.firstName}!` }));

    // The account menu in the top bar: Enter opens it on its first item, ArrowDown moves on.
    await pressUntilFocused(page, 'button', 'Account menu');
    await expectFocus(page, 'button', 'Account menu');
    await key('Enter');
    await expectFocus(page, 'menuitem', 'My Files');
    await key('Escape');
    await hidden(page.getByRole('menu'));
    await expectFocus(page, 'button', 'Account menu');
    await key('Enter');
    await expectFocus(page, 'menuitem', 'My Files');
    await key('ArrowDown');
    await expectFocus(page, 'menuitem', 'Account');
    await key('Enter');
    await at('account');
    await visible(page.getByRole('region', { name: 'Profile' }).getByText(user.email));
  });

  it('types a chat message and sends it with Enter; the reply appears', async () => {
    const { page, server } = s;
    await signedInAsNewUser(page, server, '', 'Chatty');
    await visible(page.getByRole('heading', { name: 'Hello, Chatty!' }));
    await inputBarReady(true);
    // Past the top bar and the drawer with the skip link, then to the message field.
    await key('Tab');
    await expectFocus(page, 'link', 'Skip to main content');
    await key('Enter');
    await pressUntilFocused(page, 'textbox', 'Message', { max: 5 });
    await expectFocus(page, 'textbox', 'Message');
    await page.keyboard.type('Where is the lighthouse?');
    await key('Enter');
    const conversation = page.getByRole('log', { name: 'Conversation' });
    await visible(conversation.getByText('You said: Where is the lighthouse?'), 'reply', 20_000);
    // Focus stays in the message field, ready for the next question.
    await expectFocus(page, 'textbox', 'Message');
    expect(await page.getByRole('textbox', { name: 'Message' }).inputValue()).toBe('');
  });

  it('file drawer by keyboard: upload, context menu, Rename with Enter, Escape closes', async () => {
    const { page, server } = s;
    const { tokens } = await signedInAsNewUser(page, server, '', 'Filer');
    await uploadViaApi(server, tokens.access_token, 'notes.txt', 'Keeper notes.\n');
    await visible(page.getByRole('heading', { name: 'Hello, Filer!' }));

    await pressUntilFocused(page, 'button', 'Account menu');
    await key('Enter');
    await expectFocus(page, 'menuitem', 'My Files');
    await key('Enter');
    const drawer = page.getByRole('dialog', { name: 'My Files' });
    await visible(drawer.getByText('notes.txt'));
    await expectFocusWithin(drawer);

    // Upload File opens the file chooser from the keyboard.
    await pressUntilFocused(page, 'button', 'Upload File', { max: 5 });
    await expectFocus(page, 'button', 'Upload File');
    const chooser = await chooserOpenedBy(page, () => key('Enter'));
    await chooser.setInputFiles({
      name: 'log.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('A log.\n'),
    });
    // The status shows in the drawer; the focus stays on Upload File (no dialog to close).
    const status = page.getByRole('list', { name: 'File Upload Status' });
    await visible(status.getByRole('alert'));
    await expectFocus(page, 'button', 'Upload File');
    await visible(drawer.getByRole('list', { name: 'Files' }).getByText('log.txt'));

    // The file's context menu: Shift+F10 on the file, as in a desktop file manager.
    await pressUntilFocused(page, 'button', /^notes\.txt/, { max: 8 });
    await expectFocus(page, 'button', /^notes\.txt/);
    await key('Shift+F10');
    const menu = page.getByRole('menu', { name: 'Actions for notes.txt' });
    await visible(menu);
    await expectFocus(page, 'menuitem', 'Open');
    await pressUntilFocused(page, 'menuitem', 'Rename', { key: 'ArrowDown', max: 9 });
    await key('Enter');
    const rename = page.getByRole('dialog', { name: 'Rename File' });
    await visible(rename);
    // The name field takes the focus with the name selected: typing replaces it.
    await expectFocus(page, 'textbox', 'New name');
    await page.keyboard.type('keeper-notes');
    await key('Enter');
    await hidden(rename);
    await visible(drawer.getByText('keeper-notes.txt'));
    // Focus comes back to the renamed file's row, not to the page's start.
    await expectFocus(page, 'button', /^keeper-notes\.txt/);

    // Escape closes the menu (focus back on its button) and a dialog (focus back in the drawer).
    await pressUntilFocused(page, 'button', 'Actions for keeper-notes.txt', { max: 6 });
    await key('Enter');
    await expectFocus(page, 'menuitem', 'Open');
    await key('Escape');
    await hidden(page.getByRole('menu'));
    await expectFocus(page, 'button', 'Actions for keeper-notes.txt');
    await key('Enter');
    await pressUntilFocused(page, 'menuitem', 'Delete', { key: 'ArrowDown', max: 9 });
    await key('Enter');
    const confirm = page.getByRole('dialog', { name: 'Confirm Deletion' });
    await visible(confirm);
    await expectFocusWithin(confirm);
    await key('Escape');
    await hidden(confirm);
    await expectFocus(page, 'button', 'Actions for keeper-notes.txt');
    await visible(drawer.getByText('keeper-notes.txt'));

    // Escape closes the drawer; focus returns to the account menu button that opened it.
    await key('Escape');
    await hidden(drawer);
    await expectFocus(page, 'button', 'Account menu');
  });

  it('toggles the theme with the keyboard and opens / closes Contact Us', async () => {
    const { page, server } = s;
    await page.goto(server.url);
    await visible(page.getByRole('heading', { name: 'Hello!' }));
    await pressUntilFocused(page, 'button', 'Change theme');
    await expectFocus(page, 'button', 'Change theme');
    expect(await background()).toBe(BACKGROUND.light);
    await key('Enter');
    await expect.poll(background).toBe(BACKGROUND.dark);
    await expectFocus(page, 'button', 'Change theme');
    await key('Space');
    await expect.poll(background).toBe(BACKGROUND.light);

    // Help → Contact in the side drawer.
    await pressUntilFocused(page, 'button', 'Contact');
    await expectFocus(page, 'button', 'Contact');
    await key('Enter');
    const dialog = page.getByRole('dialog', { name: 'Contact Us' });
    await visible(dialog);
    await expectFocusWithin(dialog);
    await pressUntilFocused(page, 'textbox', /^Name/, { max: 3 });
    await expectFocus(page, 'textbox', /^Name/);
    await page.keyboard.type('Ada');
    await key('Escape');
    await hidden(dialog);
    await expectFocus(page, 'button', 'Contact');
  });
});
