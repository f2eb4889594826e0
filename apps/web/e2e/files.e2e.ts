import { readFileSync } from 'node:fs';
import type { Locator } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { AI_MARK, startProductAi, type OpenAITestServer } from './support/ai';
import { expectNoAxeViolations } from './support/axe';
import { openMyFiles, sixFixtures, uploadViaApi } from './support/files';
import { useScenario } from './support/scenario';
import { chooseTheme, expectTheme, hidden, holdRequests, THEMES, visible } from './support/ui';
import { signedInAsNewUser } from './support/users';

describe('files: upload, preview, rename, download, delete, document actions', () => {
  let ai: OpenAITestServer | undefined;
  const s = useScenario({
    env: async () => {
      ai = await startProductAi();
      return { AI_BASE_URL: ai.url };
    },
  });
  afterAll(async () => {
    await ai?.close();
  });

  const statusDialog = () => s.page.getByRole('dialog', { name: 'File Upload Status' });
  const fileMenu = async (drawer: Locator, fileName: string) => {
    await drawer.getByRole('button', { name: `Actions for ${fileName}` }).click();
    const menu = s.page.getByRole('menu', { name: `Actions for ${fileName}` });
    await visible(menu);
    return menu;
  };
  const articles = () => s.page.getByRole('log', { name: 'Conversation' }).getByRole('article');

  it('uploads each of the six types (progress, status dialog) and previews each', async () => {
    const { page, server } = s;
    await signedInAsNewUser(page, server);
    const drawer = await openMyFiles(page);
    await visible(drawer.getByText('Your folder is empty.'));
    const fixtures = await sixFixtures();

    for (const [i, f] of fixtures.entries()) {
      // The first upload is held at the network, so its in-progress state can be seen.
      const release = i === 0 ? await holdRequests(page, '**/api/upload_file') : () => {};
      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser'),
        drawer.getByRole('button', { name: 'Upload File' }).click(),
      ]);
      await chooser.setFiles({ name: f.name, mimeType: f.mimeType, buffer: f.buffer });
      const dialog = statusDialog();
      await visible(dialog);
      await visible(dialog.getByText(f.name));
      if (i === 0) {
        await visible(dialog.getByRole('progressbar', { name: 'Upload progress' }));
        expect(await dialog.getByRole('button', { name: 'Close' }).isDisabled()).toBe(true);
        release();
      }
      await visible(dialog.getByRole('alert'), `upload of ${f.name}`);
      expect(await dialog.getByRole('alert').textContent()).toMatch(/uploaded/i);
      await dialog.getByRole('button', { name: 'Close' }).click();
      await hidden(dialog);
      await visible(drawer.getByRole('list', { name: 'Files' }).getByText(f.name));
    }

    for (const f of fixtures) {
      await drawer.getByRole('list', { name: 'Files' }).getByText(f.name).dblclick();
      const preview = page.getByRole('dialog', { name: f.name });
      await visible(preview);
      const slider = preview.getByRole('slider', { name: 'Zoom' });
      expect(await slider.getAttribute('aria-valuenow')).toBe('16');
      expect(await slider.getAttribute('aria-valuemin')).toBe('10');
      expect(await slider.getAttribute('aria-valuemax')).toBe('40');
      if (f.name.endsWith('.pdf')) {
        await visible(preview.getByRole('img', { name: f.shows }), `preview of ${f.name}`, 15_000);
      } else {
        await visible(preview.getByText(f.shows), `preview of ${f.name}`);
      }
      await preview.getByRole('button', { name: 'Close' }).click();
      await hidden(preview);
    }
  });

  it('refuses an unsupported type and an oversize file with the spec messages', async () => {
    const { page, server } = s;
    await signedInAsNewUser(page, server);
    const drawer = await openMyFiles(page);
    const attempts = [
      {
        file: { name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from('png') },
        message: 'Unsupported file type. Please select an allowed file.',
      },
      {
        file: {
          name: 'huge.txt',
          mimeType: 'text/plain',
          buffer: Buffer.alloc(2 * 1024 * 1024 + 1, 'a'),
        },
        message: 'File size exceeds the allowed limit.',
      },
    ];
    for (const { file, message } of attempts) {
      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser'),
        drawer.getByRole('button', { name: 'Upload File' }).click(),
      ]);
      await chooser.setFiles(file);
      await visible(statusDialog().getByText(message));
      await statusDialog().getByRole('button', { name: 'Close' }).click();
      await hidden(statusDialog());
    }
    await visible(drawer.getByText('Your folder is empty.'));
    await drawer.getByRole('button', { name: 'Close My Files' }).click();

    // The chat's upload button checks the same rules and clears its input.
    for (const { file, message } of attempts) {
      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser'),
        page.getByRole('button', { name: 'Upload file' }).click(),
      ]);
      await chooser.setFiles(file);
      await visible(page.getByRole('alert').filter({ hasText: message }));
      // The rejected file does not stay selected.
      const values = await page
        .getByLabel('Choose a document')
        .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
      expect(values.length).toBeGreaterThan(0);
      expect(values.every((v) => v === '')).toBe(true);
      await hidden(page.getByRole('dialog', { name: 'Select Action for file' }));
    }
  });

  it('renames (extension kept), downloads (name from content-disposition), deletes, deletes all', async () => {
    const { page, server } = s;
    const { tokens } = await signedInAsNewUser(page, server);
    await uploadViaApi(server, tokens.access_token, 'notes.txt', 'Keeper notes, day one.\n');
    await uploadViaApi(server, tokens.access_token, 'other.csv', 'a,b\n1,2\n');
    const drawer = await openMyFiles(page);
    const list = drawer.getByRole('list', { name: 'Files' });
    await visible(list.getByText('notes.txt'));

    await (await fileMenu(drawer, 'notes.txt')).getByRole('menuitem', { name: 'Rename' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename File' });
    await visible(rename);
    const name = rename.getByRole('textbox', { name: 'New name' });
    expect(await name.inputValue()).toBe('notes');
    await visible(rename.getByText('.txt'));
    expect(await rename.getByRole('button', { name: 'Rename' }).isDisabled()).toBe(true);
    await name.fill('keeper-notes');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await hidden(rename);
    await visible(list.getByText('keeper-notes.txt'));
    expect(await list.getByText('notes.txt', { exact: true }).count()).toBe(0);

    const menu = await fileMenu(drawer, 'keeper-notes.txt');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      menu.getByRole('menuitem', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('keeper-notes.txt');
    expect(readFileSync(await download.path(), 'utf8')).toBe('Keeper notes, day one.\n');

    await (
      await fileMenu(drawer, 'keeper-notes.txt')
    )
      .getByRole('menuitem', { name: 'Delete', exact: true })
      .click();
    const confirm = page.getByRole('dialog', { name: 'Confirm Deletion' });
    await visible(confirm.getByText('keeper-notes.txt'));
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await hidden(list.getByText('keeper-notes.txt'));
    await visible(list.getByText('other.csv'));

    await uploadViaApi(server, tokens.access_token, 'third.txt', 'three');
    await page.reload();
    const again = await openMyFiles(page);
    await visible(again.getByText('third.txt'));
    await (
      await fileMenu(again, 'other.csv')
    )
      .getByRole('menuitem', { name: 'Delete All' })
      .click();
    await visible(confirm);
    await confirm.getByRole('button', { name: 'Delete All' }).click();
    await visible(again.getByText('Your folder is empty.'));
  });

  it("lists the files in the side drawer's MyFiles panel with its shorter menu", async () => {
    const { page, server } = s;
    const { tokens } = await signedInAsNewUser(page, server);
    await uploadViaApi(server, tokens.access_token, 'panel.txt', 'Panel text.\n');
    await page.reload();
    await page.getByRole('button', { name: 'Open menu' }).click();
    const panel = page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('region', { name: 'My Files' });
    await visible(panel.getByText('panel.txt'));
    await panel.getByRole('button', { name: 'Actions for panel.txt' }).click();
    const menu = page.getByRole('menu', { name: 'Actions for panel.txt' });
    await visible(menu);
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual([
      'Open',
      'Download',
      'Rename',
      'Delete',
      'Delete All',
    ]);
    await menu.getByRole('menuitem', { name: 'Open' }).click();
    const preview = page.getByRole('dialog', { name: 'panel.txt' });
    await visible(preview.getByText('Panel text.'));
  });

  it('proofreads, analyses sentiment, summarizes and translates a stored file to French', async () => {
    const { page, server } = s;
    const { tokens } = await signedInAsNewUser(page, server);
    const doc = (await sixFixtures()).find((f) => f.name.endsWith('.docx'))!;
    await uploadViaApi(server, tokens.access_token, doc.name, doc.buffer);
    await page.goto(`${server.url}account`);

    const run = async (item: string, done: RegExp | string) => {
      const drawer = await openMyFiles(page);
      await (await fileMenu(drawer, doc.name)).getByRole('menuitem', { name: item }).click();
      await hidden(drawer);
      await visible(articles().filter({ hasText: done }).last(), item, 20_000);
    };

    // A file action from another screen returns to the chat; its step shows while it runs.
    const release = await holdRequests(page, '**/api/proofread');
    const drawerForProofread = await openMyFiles(page);
    await (
      await fileMenu(drawerForProofread, doc.name)
    )
      .getByRole('menuitem', { name: 'Proofread' })
      .click();
    const step = articles().filter({ hasText: `Starting Proofread for ${doc.name}...` });
    await visible(step);
    expect(await step.getAttribute('aria-busy')).toBe('true');
    expect(new URL(page.url()).pathname.replace(/\/$/, '')).toBe('/assistant');
    release();
    await visible(
      articles().filter({ hasText: `Proofread completed for ${doc.name}.` }),
      'proofread',
      20_000,
    );
    // The step stays as a plain system message, no longer loading.
    expect(await step.getAttribute('aria-busy')).toBeNull();
    await run('Sentiment Analysis', `Sentiment Analysis completed for ${doc.name}.`);
    await run('Summarize', AI_MARK.summary);

    const drawer = await openMyFiles(page);
    await (await fileMenu(drawer, doc.name)).getByRole('menuitem', { name: 'Translate' }).click();
    const language = page.getByRole('dialog', { name: 'Select Translation Language' });
    await visible(language);
    const confirm = language.getByRole('button', { name: 'Translate' });
    expect(await confirm.isDisabled()).toBe(true);
    await expectNoAxeViolations(page, 'Select Translation Language dialog (light)');
    await language.getByRole('combobox', { name: /Target language/ }).click();
    await page.getByRole('option', { name: 'French' }).click();
    await confirm.click();
    await visible(
      articles().filter({ hasText: 'Translation completed successfully.' }),
      'done',
      20_000,
    );
    await visible(
      articles()
        .filter({ hasText: `${AI_MARK.translation} into French` })
        .first(),
    );
    expect(
      await articles().filter({ hasText: 'The new lens arrives on Monday.' }).count(),
    ).toBeGreaterThan(0);
  });

  it('asks a question about an uploaded document in question mode', async () => {
    const { page, server } = s;
    await signedInAsNewUser(page, server);
    const pdf = (await sixFixtures()).find((f) => f.name.endsWith('.pdf'))!;
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('button', { name: 'Upload file' }).click(),
    ]);
    await chooser.setFiles({ name: pdf.name, mimeType: pdf.mimeType, buffer: pdf.buffer });
    const choose = page.getByRole('dialog', { name: 'Select Action for file' });
    await visible(choose);
    await visible(choose.getByText(pdf.name));
    await expectNoAxeViolations(page, 'Select Action for file dialog (light)');
    await choose.getByRole('button', { name: 'Ask Questions' }).click();
    await visible(
      articles().filter({ hasText: `Go ahead and ask questions about ${pdf.name}...` }),
    );
    const input = page.getByRole('textbox', { name: 'Message' });
    expect(await input.getAttribute('placeholder')).toBe(`Ask a question about ${pdf.name}`);
    await input.fill('What did the keeper write about?');
    await input.press('Enter');
    await visible(articles().filter({ hasText: AI_MARK.answer }), 'answer', 20_000);
    // The question mode ends after one question.
    expect(await input.getAttribute('placeholder')).toBe('Ask anything');
    const asked = ai!.requests.find((r) =>
      r.messages.some((m) => m.content.includes('answer questions about a document')),
    );
    expect(JSON.stringify(asked?.messages)).toContain('storm');
  });

  it('has no axe violations in the file drawer, file menu and file dialogs, light and dark', async () => {
    const { page, server } = s;
    const { tokens } = await signedInAsNewUser(page, server);
    await uploadViaApi(server, tokens.access_token, 'notes.txt', 'Keeper notes.\n');
    for (const theme of THEMES) {
      await chooseTheme(page, theme);
      await page.reload();
      await expectTheme(page, theme);
      const drawer = await openMyFiles(page);
      await visible(drawer.getByText('notes.txt'));
      await expectNoAxeViolations(page, `file drawer (${theme})`);
      await fileMenu(drawer, 'notes.txt');
      await expectNoAxeViolations(page, `file menu (${theme})`);
      await page.keyboard.press('Escape');

      const steps: [string, string][] = [
        ['Open', 'notes.txt'],
        ['Rename', 'Rename File'],
        ['Delete', 'Confirm Deletion'],
      ];
      for (const [item, dialogName] of steps) {
        await (
          await fileMenu(drawer, 'notes.txt')
        )
          .getByRole('menuitem', { name: item, exact: true })
          .click();
        const dialog = page.getByRole('dialog', { name: dialogName, exact: true });
        await visible(dialog);
        if (item === 'Open') await visible(dialog.getByText('Keeper notes.'));
        await expectNoAxeViolations(page, `${dialogName} dialog (${theme})`);
        await dialog.getByRole('button', { name: /Close|Cancel/ }).click();
        await hidden(dialog);
      }

      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser'),
        drawer.getByRole('button', { name: 'Upload File' }).click(),
      ]);
      await chooser.setFiles({ name: 'x.png', mimeType: 'image/png', buffer: Buffer.from('x') });
      await visible(statusDialog().getByRole('alert'));
      await expectNoAxeViolations(page, `File Upload Status dialog (${theme})`);
      await statusDialog().getByRole('button', { name: 'Close' }).click();
    }
  });
});
