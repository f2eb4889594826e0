import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { makePdf } from '../../server/src/features/files/reader/test-fixtures';
import { AI_MARK } from './support/ai';
import { expectNoAxeViolations } from './support/axe';
import { expectFocus, pressUntilFocused } from './support/focus';
import { openMyFiles, pickFile, uploadViaApi } from './support/files';
import { useScenario } from './support/scenario';
import { chooseTheme, expectTheme, hidden, THEMES, visible } from './support/ui';
import { signedInAsNewUser } from './support/users';

/**
 * Issue 35 in the browser: files become searchable after their upload, "Ask my files" asks across
 * the folder (or the files picked in the drawer, by keyboard), the answer cites its sources as
 * chips, and a chip opens the file's preview at the passage, marked. Axe-clean in both themes and
 * 390 px wide.
 */
const KEEPER = [
  'Harbour notes of the spring season.',
  '',
  'The lighthouse keeper is named Ada Lovelace; she lights the lamp at dusk every evening.',
  '',
  'The bakery on the quay sells rye bread and cinnamon buns on Saturdays.',
].join('\n');
const STORM = 'The storm of March broke the northern lens of the tower.';

describe('Ask my files: searchable files, answers with sources, the preview at the passage', () => {
  const s = useScenario({ ai: {} });
  const conversation = () => s.page.getByRole('log', { name: 'Conversation' });
  const fileRow = (page: Page, name: string) =>
    page
      .getByRole('dialog', { name: 'My Files' })
      .getByRole('list', { name: 'Files' })
      .getByRole('listitem')
      .filter({ hasText: name });

  /** Sends `question` with Ask my files on; resolves to the chips of the answer that comes. */
  async function ask(page: Page, question: string, answersBefore: number) {
    const message = page.getByRole('textbox', { name: 'Message' });
    await message.fill(question);
    await message.press('Enter');
    const sources = conversation().getByRole('list', { name: 'Sources' });
    await expect
      .poll(() => sources.count(), { message: `sources of "${question}"`, timeout: 30_000 })
      .toBe(answersBefore + 1);
    return sources.nth(answersBefore).getByRole('button');
  }

  it('uploads, shows Searchable, asks the folder and picked files, opens a chip at its passage', async () => {
    const { page, server } = s;
    const { tokens } = await signedInAsNewUser(page, server);
    await uploadViaApi(server, tokens.access_token, 'storm-report.pdf', await makePdf([STORM]));
    const drawer = await openMyFiles(page);
    await pickFile(drawer.getByRole('button', { name: 'Upload File' }), {
      name: 'keeper.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from(KEEPER),
    });
    // The drawer's inline upload status (issue 39): the file's line says it is uploaded.
    const status = page.getByRole('list', { name: 'File Upload Status' });
    await visible(status.getByRole('alert').filter({ hasText: 'keeper.txt' }));
    // Each file is read and indexed, then says so (the list refreshes by itself meanwhile).
    for (const name of ['keeper.txt', 'storm-report.pdf']) {
      await visible(fileRow(page, name).getByText('Searchable'), `${name} searchable`, 45_000);
    }
    await expectNoAxeViolations(page, 'the file drawer with the files searchable');
    await drawer.getByRole('button', { name: 'Close My Files' }).click();
    await hidden(drawer);

    // The whole folder.
    const toggle = page.getByRole('button', { name: 'Ask my files' });
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    await visible(page.getByText('Asking all your files'));
    const chips = await ask(page, 'Who is the lighthouse keeper?', 0);
    await visible(conversation().getByText(AI_MARK.filesAnswer, { exact: false }));
    expect(await chips.first().textContent()).toContain('keeper.txt');
    await expectNoAxeViolations(page, 'an answer across files with its sources');

    await chips.first().click();
    const preview = page.getByRole('dialog', { name: 'keeper.txt' });
    await visible(preview);
    const mark = preview.locator('mark');
    await visible(mark);
    expect(await mark.textContent()).toContain('Ada Lovelace');
    expect(
      await preview.getByRole('button', { name: 'Show passage' }).getAttribute('aria-pressed'),
    ).toBe('true');
    await expectNoAxeViolations(page, 'the preview at a cited passage');
    await page.keyboard.press('Escape');
    await hidden(preview);

    // Picked with the keyboard in the drawer: only the pdf is asked.
    await pressUntilFocused(page, 'button', 'Pick files');
    await page.keyboard.press('Enter');
    const opened = page.getByRole('dialog', { name: 'My Files' });
    await visible(opened);
    await pressUntilFocused(page, 'checkbox', 'Pick storm-report.pdf for Ask my files');
    await page.keyboard.press('Space');
    expect(await opened.getByRole('checkbox', { name: /storm-report\.pdf/ }).isChecked()).toBe(
      true,
    );
    await page.keyboard.press('Escape');
    await hidden(opened);
    await visible(
      page
        .getByRole('list', { name: 'Picked files' })
        .getByRole('button', { name: 'Remove storm-report.pdf' }),
    );
    await visible(page.getByText('Asking 1 picked file:'));
    const pdfChips = await ask(page, 'What broke in the storm?', 1);
    const labels = await pdfChips.allTextContents();
    expect(labels.length).toBeGreaterThan(0);
    for (const label of labels) expect(label).toContain('storm-report.pdf');

    // A pdf's passage is marked in its text (the preview's text format), opened by keyboard.
    await pdfChips.first().focus();
    await page.keyboard.press('Enter');
    const pdfPreview = page.getByRole('dialog', { name: 'storm-report.pdf' });
    await visible(pdfPreview.locator('mark'));
    expect(await pdfPreview.locator('mark').textContent()).toContain('northern lens');
    // 'Show passage' off: the pdf as it looks.
    await pdfPreview.getByRole('button', { name: 'Show passage' }).click();
    await visible(pdfPreview.getByRole('img', { name: 'Page 1' }), 'the pdf page', 15_000);
    await pdfPreview.getByRole('button', { name: 'Close' }).click();
    await hidden(pdfPreview);

    // After a reload both answers come back with their chips (they are jobs).
    await page.reload();
    await expect
      .poll(() => conversation().getByRole('list', { name: 'Sources' }).count(), {
        timeout: 20_000,
      })
      .toBe(2);
    await visible(conversation().getByText('What broke in the storm?'));
  }, 180_000);

  it('is axe-clean in both themes, at 1280 and 390 px, with picked files and sources shown', async () => {
    const { page, server } = s;
    const { tokens } = await signedInAsNewUser(page, server);
    await uploadViaApi(server, tokens.access_token, 'keeper.txt', KEEPER);
    await page.reload();
    const drawer = await openMyFiles(page);
    await visible(fileRow(page, 'keeper.txt').getByText('Searchable'), 'searchable', 45_000);
    await drawer.getByRole('checkbox', { name: 'Pick keeper.txt for Ask my files' }).check();
    await drawer.getByRole('button', { name: 'Close My Files' }).click();
    await hidden(drawer);
    await ask(page, 'Who lights the lamp?', 0);

    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 844 });
      for (const theme of THEMES) {
        await chooseTheme(page, theme);
        await page.reload();
        await expectTheme(page, theme);
        await visible(conversation().getByRole('list', { name: 'Sources' }), 'sources', 20_000);
        // Picks live in the page: pick again after the reload, so the input bar shows them.
        const again = await openMyFiles(page);
        await visible(fileRow(page, 'keeper.txt').getByText('Searchable'));
        await expectNoAxeViolations(page, `the drawer with search states (${theme}, ${width} px)`);
        await again.getByRole('checkbox', { name: 'Pick keeper.txt for Ask my files' }).check();
        await again.getByRole('button', { name: 'Close My Files' }).click();
        await hidden(again);
        await visible(page.getByRole('button', { name: 'Remove keeper.txt' }));
        await expectNoAxeViolations(page, `chips and picks (${theme}, ${width} px)`);
        // Nothing is wider than the screen.
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
          `no sideways scroll at ${width} px`,
        ).toBe(true);
        await conversation()
          .getByRole('list', { name: 'Sources' })
          .getByRole('button')
          .first()
          .click();
        const preview = page.getByRole('dialog', { name: 'keeper.txt' });
        await visible(preview.locator('mark'));
        await expectNoAxeViolations(page, `the preview at the passage (${theme}, ${width} px)`);
        await preview.getByRole('button', { name: 'Close' }).click();
        await hidden(preview);
        await expectFocus(page, 'button', /keeper\.txt/, { visibleFocus: false });
      }
    }
  }, 240_000);
});
