import { readFileSync } from 'node:fs';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { makeDocx } from '../../server/src/features/files/reader/test-fixtures';
import { AI_MARK } from './support/ai';
import { expectNoAxeViolations } from './support/axe';
import { openMyFiles, pickFile, sixFixtures, uploadViaApi } from './support/files';
import { useScenario } from './support/scenario';
import { chooseTheme, expectTheme, hidden, holdRequests, THEMES, visible } from './support/ui';
import { signedInAsNewUser } from './support/users';

/** Known mistakes (Harper finds exactly these three) and clearly positive and negative lines. */
const MISTAKES = 'This is an test. Their going to the store tomorow.';
const CORRECTED = "This is a test. They're going to the store tomorrow.";
const POSITIVE = 'I love this product, it is wonderful and works great!';
const NEGATIVE = 'Terrible quality. I hate it, a horrible waste of money.';

describe('files: upload, preview, rename, download, delete, document actions', () => {
  const s = useScenario({ ai: {} });

  /** The drawer's upload status: each file of the last pick (no dialog, issue 39). */
  const uploadStatus = () => s.page.getByRole('list', { name: 'File Upload Status' });
  const fileMenu = async (drawer: Locator, fileName: string) => {
    await drawer.getByRole('button', { name: `Actions for ${fileName}` }).click();
    const menu = s.page.getByRole('menu', { name: `Actions for ${fileName}` });
    await visible(menu);
    return menu;
  };
  const articles = () => s.page.getByRole('log', { name: 'Conversation' }).getByRole('article');

  it('uploads each of the six types (progress, inline status), several at once, and previews each', async () => {
    const { page, server } = s;
    await signedInAsNewUser(page, server);
    const drawer = await openMyFiles(page);
    await visible(drawer.getByText('Your folder is empty.'));
    const fixtures = await sixFixtures();

    for (const [i, f] of fixtures.entries()) {
      // The first upload is held at the network, so its in-progress state can be seen.
      const release = i === 0 ? await holdRequests(page, '**/api/upload_file') : () => {};
      await pickFile(drawer.getByRole('button', { name: 'Upload File' }), {
        name: f.name,
        mimeType: f.mimeType,
        buffer: f.buffer,
      });
      const status = uploadStatus();
      await visible(status);
      if (i === 0) {
        await visible(status.getByRole('progressbar', { name: `Upload progress of ${f.name}` }));
        release();
      }
      await visible(status.getByRole('alert').filter({ hasText: f.name }), `upload of ${f.name}`);
      expect(await status.getByRole('alert').textContent()).toMatch(/uploaded/i);
      await visible(drawer.getByRole('list', { name: 'Files' }).getByText(f.name));
    }
    // No dialog to close after a success.
    expect(await page.getByRole('dialog', { name: 'File Upload Status' }).count()).toBe(0);

    // Several files picked at once: each uploaded, each with its line.
    const more = ['one.txt', 'two.txt', 'three.txt'];
    await pickFile(
      drawer.getByRole('button', { name: 'Upload File' }),
      more.map((name) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(`${name}\n`) })),
    );
    for (const name of more) {
      await visible(uploadStatus().getByRole('alert').filter({ hasText: name }), name);
      await visible(drawer.getByRole('list', { name: 'Files' }).getByText(name));
    }

    // Each preview answer's status and time, for the message of a preview that does not show.
    const previewAnswers: string[] = [];
    const started = Date.now();
    page.on('response', (r) => {
      if (r.url().includes('/api/preview_file/'))
        previewAnswers.push(`${r.status()} after ${Date.now() - started} ms`);
    });
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
        // On a time-out, what the dialog showed instead says where it stood.
        await visible(preview.getByText(f.shows), `preview of ${f.name}`).catch(async (err) => {
          const shown = (await preview.textContent())?.slice(0, 300);
          throw new Error(
            `${(err as Error).message}; the dialog showed: ${shown}; ` +
              `preview answers: ${previewAnswers.join(', ') || 'none'} (${Date.now() - started} ms in)`,
          );
        });
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
        message: 'File size exceeds the allowed limit. Text files can be at most 2 MB.',
      },
    ];
    for (const { file, message } of attempts) {
      await pickFile(drawer.getByRole('button', { name: 'Upload File' }), file);
      await visible(uploadStatus().getByText(message, { exact: false }));
      await uploadStatus().getByRole('button', { name: 'Close' }).click();
      await hidden(uploadStatus());
    }
    await visible(drawer.getByText('Your folder is empty.'));
    await drawer.getByRole('button', { name: 'Close My Files' }).click();

    // The chat's upload button checks the same rules and clears its input.
    for (const { file, message } of attempts) {
      await pickFile(page.getByRole('button', { name: 'Upload file' }), file);
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
    // The field opens focused with the name selected: typing replaces it.
    await expect
      .poll(
        () =>
          name.evaluate(
            (el: HTMLInputElement) =>
              el === document.activeElement && el.selectionStart === 0 && el.selectionEnd === 5,
          ),
        { message: 'the name focused and selected' },
      )
      .toBe(true);
    await page.keyboard.type('keeper-notes');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await hidden(rename);
    await visible(list.getByText('keeper-notes.txt'));
    expect(await list.getByText('notes.txt', { exact: true }).count()).toBe(0);

    // Renamed again behind the UI's back (the list keeps its cached name): the download must be
    // named by the server's Content-Disposition, not by the listed name. The non-ASCII name only
    // survives through its RFC 5987 `filename*` (the plain `filename` reads "phare-_t_.txt").
    const auth = { Authorization: `Bearer ${tokens.access_token}` };
    const listed = await fetch(`${server.url}api/my_files`, { headers: auth });
    const { files } = (await listed.json()) as { files: { id: number; file_name: string }[] };
    const stored = files.find((f) => f.file_name === 'keeper-notes.txt');
    expect(stored, JSON.stringify(files)).toBeDefined();
    const renamed = await fetch(`${server.url}api/rename_file/${stored!.id}`, {
      method: 'PATCH',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ new_name: 'phare-été' }),
    });
    expect(renamed.status, await renamed.clone().text()).toBe(200);
    await visible(list.getByText('keeper-notes.txt'));
    expect(await list.getByText('phare-été.txt').count()).toBe(0);

    const menu = await fileMenu(drawer, 'keeper-notes.txt');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      menu.getByRole('menuitem', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('phare-été.txt');
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
    const doc = {
      name: 'letter.docx',
      buffer: await makeDocx([
        'Dear keeper,',
        'The new lens arrives on Monday.',
        MISTAKES,
        POSITIVE,
        NEGATIVE,
      ]),
    };
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
      // The first proofread starts the grammar checker (WebAssembly), slow on a busy machine.
      30_000,
    );
    // The step stays as a plain system message, no longer loading.
    expect(await step.getAttribute('aria-busy')).toBeNull();
    // The findings came first, under the step; the model's notes after them.
    const proofread = articles().filter({ hasText: AI_MARK.proofread });
    await visible(proofread, 'proofread notes');
    const findings = step;
    await visible(findings.getByText('Corrected text: 3 changes · 3 issues found'));
    const corrected = findings.getByRole('region', { name: 'Corrected text' });
    expect(await corrected.textContent()).toContain(CORRECTED);
    expect(await corrected.textContent()).not.toContain('tomorow');
    expect(await corrected.locator('mark').allTextContents()).toEqual(['a', "They're", 'tomorrow']);
    expect(
      await corrected.locator('mark').filter({ hasText: 'tomorrow' }).getAttribute('title'),
    ).toMatch(/tomorow/);
    const changes = findings.getByRole('list', { name: 'Changes applied' });
    expect(await changes.getByRole('listitem').allTextContents()).toEqual([
      '“an” → “a” (Miscellaneous)Undo',
      "“Their” → “They're” (Grammar)Undo",
      '“tomorow” → “tomorrow” (Spelling)Undo',
    ]);
    // One change undone before download: the file has the word as it was written.
    await changes.getByRole('button', { name: 'Undo: “tomorow” → “tomorrow”' }).click();
    expect(await corrected.textContent()).toContain('to the store tomorow.');
    await visible(findings.getByText('Corrected text: 2 changes (1 undone) · 3 issues found'));
    await findings.getByRole('button', { name: 'Download corrected text' }).click();
    const downloadDialog = page.getByRole('dialog', { name: 'Download File' });
    await visible(downloadDialog);
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/download-response'));
    await downloadDialog.getByRole('button', { name: 'Download' }).click();
    const body = JSON.parse((await sent).postData() ?? '{}') as { text: string };
    expect(body.text).toContain("This is a test. They're going to the store tomorow.");
    await hidden(downloadDialog);

    await run('Sentiment Analysis', `Sentiment Analysis completed for ${doc.name}.`);
    // The result: the model's overview, the overall figure, a bar per label, a row per paragraph.
    const sentiment = articles().filter({ hasText: AI_MARK.sentiment });
    await visible(sentiment, 'sentiment result');
    await visible(sentiment.getByText('Overall: positive (0.08)'));
    const bars = sentiment
      .getByRole('list', { name: 'Sentiment distribution' })
      .getByRole('listitem');
    expect(await bars.allTextContents()).toEqual(['positive2', 'neutral2', 'negative1']);
    // Each bar's fill is its share of the items (2/5, 2/5, 1/5).
    expect(
      await bars.evaluateAll((items) =>
        items.map((li) => {
          const track = li.children[1]!;
          const fill = track.firstElementChild!;
          const ratio = fill.getBoundingClientRect().width / track.getBoundingClientRect().width;
          return Math.round(ratio * 100) / 100;
        }),
      ),
    ).toEqual([0.4, 0.4, 0.2]);
    const table = sentiment.getByRole('region', { name: 'Sentiment by item' });
    const cells = (text: string) =>
      table.getByRole('row').filter({ hasText: text }).getByRole('cell').allTextContents();
    expect(await table.getByRole('row').count()).toBe(6);
    expect(await cells(POSITIVE)).toEqual([POSITIVE, 'positive', '0.92']);
    expect(await cells(NEGATIVE)).toEqual([NEGATIVE, 'negative', '-0.92']);
    expect(await cells(MISTAKES)).toEqual([MISTAKES, 'neutral', '0.00']);

    // Both results in the conversation, in light and (toggled in place) dark.
    await expectNoAxeViolations(page, 'chat with proofread and sentiment results (light)');
    await page.getByRole('button', { name: 'Change theme' }).click();
    await expectTheme(page, 'dark');
    await visible(proofread);
    await visible(findings.getByRole('list', { name: 'Changes applied' }));
    await expectNoAxeViolations(page, 'chat with proofread and sentiment results (dark)');
    await page.getByRole('button', { name: 'Change theme' }).click();
    await expectTheme(page, 'light');

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

    // The same dialog in dark.
    await chooseTheme(page, 'dark');
    await page.reload();
    await expectTheme(page, 'dark');
    const darkDrawer = await openMyFiles(page);
    await (
      await fileMenu(darkDrawer, doc.name)
    )
      .getByRole('menuitem', { name: 'Translate' })
      .click();
    await visible(language);
    await expectNoAxeViolations(page, 'Select Translation Language dialog (dark)');
    await language.getByRole('button', { name: 'Cancel' }).click();
    await hidden(language);
    // Four document actions and four axe scans: more than the default 60 s on a busy machine.
  }, 120_000);

  it('analyses the sentiment of a title list, then of the column chosen in the picker', async () => {
    const { page, server } = s;
    const { tokens } = await signedInAsNewUser(page, server);
    const csv =
      'TITLE,CONTENT TYPE,ISSN\n' +
      '"Communications of the ACM: a wonderful and inspiring read",Journals,0001-0782\n' +
      '"ACM Transactions on Graphics, a terrible mess this year",Journals,0730-0301\n' +
      '"ACM SIGMOD Record",SIG Newsletters,0163-5808\n' +
      '"Interactions: the best magazine for designers",Magazines,1072-5520\n';
    await uploadViaApi(server, tokens.access_token, 'titles.csv', csv);
    await page.reload();
    const drawer = await openMyFiles(page);
    await (
      await fileMenu(drawer, 'titles.csv')
    )
      .getByRole('menuitem', { name: 'Sentiment Analysis' })
      .click();
    await hidden(drawer);
    const first = articles().filter({ hasText: AI_MARK.sentiment }).last();
    await visible(first, 'sentiment of the titles', 20_000);
    await visible(first.getByText(/column “TITLE”/));
    const picker = first.getByRole('combobox', { name: 'Column analysed' });
    expect(await picker.inputValue()).toBe('TITLE');
    await expectNoAxeViolations(page, 'sentiment result with its column picker (light)');
    await picker.selectOption('CONTENT TYPE');
    await visible(
      articles().filter({
        hasText: 'Starting Sentiment Analysis for titles.csv (column “CONTENT TYPE”)...',
      }),
    );
    const second = articles()
      .filter({ hasText: /column “CONTENT TYPE”/ })
      .last();
    const table = second.getByRole('region', {
      name: 'Sentiment by item in column “CONTENT TYPE”',
    });
    await visible(table, 'second run', 20_000);
    const cells = await table.getByRole('row').allTextContents();
    expect(cells.slice(1).map((c) => c.replace(/(neutral|positive|negative).*$/, ''))).toEqual([
      'Journals',
      'Journals',
      'SIG Newsletters',
      'Magazines',
    ]);
    await page.getByRole('button', { name: 'Change theme' }).click();
    await expectTheme(page, 'dark');
    await expectNoAxeViolations(page, 'sentiment result with its column picker (dark)');
  });

  it('asks a question about an uploaded document in question mode', async () => {
    const { page, server } = s;
    await signedInAsNewUser(page, server);
    const pdf = (await sixFixtures()).find((f) => f.name.endsWith('.pdf'))!;
    await pickFile(page.getByRole('button', { name: 'Upload file' }), {
      name: pdf.name,
      mimeType: pdf.mimeType,
      buffer: pdf.buffer,
    });
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
    // The question mode stays, shown by its chip, until the person leaves it there.
    expect(await input.getAttribute('placeholder')).toBe(`Ask a question about ${pdf.name}`);
    await page.getByRole('button', { name: `Stop asking about ${pdf.name}` }).click();
    expect(await input.getAttribute('placeholder')).toBe('Ask anything');
    const asked = s.ai.requests.find((r) =>
      r.messages.some((m) => m.content.includes('answer questions about a document')),
    );
    expect(JSON.stringify(asked?.messages)).toContain('storm');

    // The same dialog in dark.
    await chooseTheme(page, 'dark');
    await page.reload();
    await expectTheme(page, 'dark');
    await pickFile(page.getByRole('button', { name: 'Upload file' }), {
      name: pdf.name,
      mimeType: pdf.mimeType,
      buffer: pdf.buffer,
    });
    await visible(choose.getByText(pdf.name));
    await expectNoAxeViolations(page, 'Select Action for file dialog (dark)');
    await choose.getByRole('button', { name: 'Cancel' }).click();
    await hidden(choose);
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

      await pickFile(drawer.getByRole('button', { name: 'Upload File' }), {
        name: 'x.png',
        mimeType: 'image/png',
        buffer: Buffer.from('x'),
      });
      await visible(uploadStatus().getByRole('alert'));
      await expectNoAxeViolations(page, `File Upload Status (${theme})`);
      await uploadStatus().getByRole('button', { name: 'Close' }).click();
    }
  });
});
