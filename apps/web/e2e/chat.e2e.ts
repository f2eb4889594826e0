import { readFileSync } from 'node:fs';
import mammoth from 'mammoth';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { AI_MARK } from './support/ai';
import { expectNoAxeViolations } from './support/axe';
import { useScenario } from './support/scenario';
import { chooseTheme, expectTheme, hidden, holdRequests, THEMES, visible } from './support/ui';
import { signedInAsNewUser } from './support/users';

/** The text of every page of a pdf (pdf.js, as the server's reader does), spaces collapsed. */
async function pdfText(bytes: Buffer): Promise<string> {
  const pdf = await getDocument({
    data: new Uint8Array(bytes),
    useSystemFonts: false,
    isEvalSupported: false,
  }).promise;
  let text = '';
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    text += `${content.items.map((i) => ('str' in i ? i.str : '')).join(' ')}\n`;
  }
  await pdf.destroy();
  return text.replace(/\s+/g, ' ');
}

describe('chat: streamed replies, counter, new topic, translation, reply download', () => {
  // Small pauses between streamed pieces, so the reply visibly arrives piece by piece.
  const s = useScenario({ ai: { pieceDelayMs: 60 } });

  const input = () => s.page.getByRole('textbox', { name: 'Message' });
  const sendButton = () => s.page.getByRole('button', { name: 'Send' });
  const conversation = () => s.page.getByRole('log', { name: 'Conversation' });
  const articles = () => conversation().getByRole('article');
  const lastArticle = () => articles().last();

  /** Sends `text` and waits for the complete reply (its counter shows once the stream ended). */
  async function chat(text: string) {
    await input().fill(text);
    await sendButton().click();
    await visible(lastArticle().getByText(/\d+ of \d+/), `reply to "${text}"`, 20_000);
  }

  it('disables the input for visitors and asks them to register or log in', async () => {
    const { page, server } = s;
    await page.goto(server.url);
    const info = page.getByRole('alert').filter({ hasText: 'to use the chat' });
    await visible(info);
    await visible(info.getByRole('link', { name: 'register' }));
    await visible(info.getByRole('link', { name: 'log in' }));
    expect(await input().isDisabled()).toBe(true);
    expect(await sendButton().isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Add URL' }).isDisabled()).toBe(true);
    await info.getByRole('link', { name: 'log in' }).click();
    await visible(page.getByRole('heading', { name: 'Sign in' }));
    // The input bar is hidden away from the chat.
    expect(await input().count()).toBe(0);
  });

  it('streams a reply with its "n of max" counter, keeps the history, New Topic clears it', async () => {
    const { page, server } = s;
    await signedInAsNewUser(page, server);
    await visible(page.getByRole('heading', { name: 'Hello, Ada!' }));
    expect(await sendButton().isDisabled()).toBe(true);
    await input().fill('   ');
    expect(await sendButton().isDisabled()).toBe(true);

    const question = 'Tell me about lighthouses and their keepers please';
    await input().fill(question);
    await visible(page.getByText(`${question.length}/1000`));
    // Record every text the reply shows while it streams.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver(() => {
        const last = [...document.querySelectorAll('[role="log"] article')].pop();
        const text = last?.textContent ?? '';
        if (seen[seen.length - 1] !== text) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    // The answer is held at the network until the 'Loading...' placeholder has been seen.
    const release = await holdRequests(page, '**/api/chat');
    await input().press('Enter');
    expect(await input().inputValue()).toBe('');
    await visible(articles().filter({ hasText: question }).first());
    await visible(lastArticle().getByText('Loading...'));
    expect(await lastArticle().getAttribute('aria-busy')).toBe('true');
    release();
    const reply = lastArticle();
    await visible(reply.getByText('1 of 20'), 'counter', 20_000);
    // Busy while it streamed (screen readers wait), not once it is whole.
    expect(await reply.getAttribute('aria-busy')).toBeNull();
    expect(await page.getByRole('log', { name: 'Conversation' }).getAttribute('aria-busy')).toBe(
      'false',
    );
    const finalText = 'You said: Tell me about lighthouses and their keepers please';
    expect(await reply.textContent()).toContain(finalText);
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    expect(
      seen.some((t) => t.includes('Loading...')),
      'placeholder shown',
    ).toBe(true);
    const partial = seen.filter((t) => t.includes('You said:') && !t.includes(finalText));
    expect(partial.length, `partial replies seen: ${JSON.stringify(seen)}`).toBeGreaterThan(0);
    expect(s.ai.requests.at(-1)?.stream).toBe(true);

    // Shift+Enter is a new line; Enter sends.
    await input().fill('line one');
    await input().press('Shift+Enter');
    await input().pressSequentially('line two');
    expect(await input().inputValue()).toBe('line one\nline two');
    await input().press('Enter');
    await visible(lastArticle().getByText('2 of 20'), 'second counter', 20_000);

    await page.reload();
    await visible(articles().filter({ hasText: question }).first());
    expect(await articles().count()).toBe(4);

    const cleared = page.waitForResponse((r) => r.url().endsWith('/api/clearAllHistories'));
    await page.getByRole('button', { name: 'New Topic' }).click();
    expect((await cleared).ok()).toBe(true);
    await visible(page.getByRole('heading', { name: 'Hello, Ada!' }));
    expect(await conversation().count()).toBe(0);
    await page.reload();
    await visible(page.getByRole('heading', { name: 'Hello, Ada!' }));
    expect(await conversation().count()).toBe(0);
  });

  it('caps the text at 1000 characters, and a failed reply gives way to the server’s reason', async () => {
    const { page, server } = s;
    await signedInAsNewUser(page, server);
    await input().fill('x'.repeat(1100));
    expect((await input().inputValue()).length).toBe(1000);
    await visible(page.getByText('1000/1000'));

    s.ai.setFailure({ status: 500 });
    try {
      const answered = page.waitForResponse((r) => r.url().endsWith('/api/chat'));
      await input().fill('This one fails');
      await sendButton().click();
      await answered;
      await visible(articles().filter({ hasText: 'This one fails' }));
      // No placeholder and no reply: the server's words in their place (issue 28).
      await visible(
        articles().filter({
          hasText: 'The assistant could not finish its answer. Please try again.',
        }),
      );
      await expect.poll(() => articles().count()).toBe(2);
      await hidden(page.getByText('Loading...'));
    } finally {
      s.ai.setFailure({});
    }
  });

  it('translates typed text to French through the Translate Text dialog', async () => {
    const { page, server } = s;
    await signedInAsNewUser(page, server);
    await input().fill('Good morning, keeper');
    await page.getByRole('button', { name: 'Translate text' }).click();
    const dialog = page.getByRole('dialog', { name: 'Translate Text' });
    await visible(dialog);
    expect(await dialog.getByRole('textbox', { name: 'Text to translate' }).inputValue()).toBe(
      'Good morning, keeper',
    );
    const translate = dialog.getByRole('button', { name: 'Translate' });
    expect(await translate.isDisabled()).toBe(true);
    await dialog.getByRole('combobox', { name: /Target language/ }).click();
    const options = page.getByRole('listbox').getByRole('option');
    expect(await options.count()).toBe(27);
    await page.getByRole('option', { name: 'French' }).click();
    expect(await translate.isEnabled()).toBe(true);
    await expectNoAxeViolations(page, 'Translate Text dialog (light)');

    const release = await holdRequests(page, '**/api/translate');
    await translate.click();
    await hidden(dialog);
    await visible(articles().filter({ hasText: 'Translating...' }));
    release();
    await visible(articles().filter({ hasText: `${AI_MARK.translation} into French` }));
    expect(await articles().filter({ hasText: 'Translating...' }).count()).toBe(0);
    expect(await lastArticle().textContent()).toContain('Good morning, keeper');
  });

  it('copies a reply, and downloads it as pdf and as docx (default name downloaded_file)', async () => {
    const { page, server } = s;
    await signedInAsNewUser(page, server);
    await chat('Write a haiku about the sea');

    // Copy: the confirmation icon shows for 2 seconds.
    await s.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await lastArticle().getByRole('button', { name: 'Copy message' }).click();
    await visible(lastArticle().getByRole('button', { name: 'Copied' }));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(
      'You said: Write a haiku about the sea',
    );
    await visible(lastArticle().getByRole('button', { name: 'Copy message' }), 'copy reset', 5_000);

    const dialog = page.getByRole('dialog', { name: 'Download File' });

    await lastArticle().getByRole('button', { name: 'Download reply' }).click();
    await visible(dialog);
    await dialog.getByRole('textbox', { name: 'File name' }).fill('sea-haiku');
    await dialog.getByRole('radio', { name: 'pdf' }).check();
    const [pdf] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(pdf.suggestedFilename()).toBe('sea-haiku.pdf');
    const pdfBytes = readFileSync(await pdf.path());
    expect(pdfBytes.subarray(0, 5).toString()).toBe('%PDF-');
    // The reply's text is in the document, not just a valid empty file.
    expect(await pdfText(pdfBytes)).toContain('You said: Write a haiku about the sea');

    await lastArticle().getByRole('button', { name: 'Download reply' }).click();
    await visible(dialog);
    await dialog.getByRole('radio', { name: 'docx' }).check();
    const [docx] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(docx.suggestedFilename()).toBe('downloaded_file.docx');
    const docxBytes = readFileSync(await docx.path());
    expect(docxBytes.subarray(0, 2).toString()).toBe('PK');
    const { value: docxText } = await mammoth.extractRawText({ buffer: docxBytes });
    expect(docxText).toContain('You said: Write a haiku about the sea');
  });

  it('small screen: Add Options expands to Upload and Add URL; no character counter', async () => {
    const { page, server } = s;
    await page.setViewportSize({ width: 360, height: 740 });
    await signedInAsNewUser(page, server);
    for (const theme of THEMES) {
      await chooseTheme(page, theme);
      await page.reload();
      await expectTheme(page, theme);
      await input().fill('abc');
      expect(await page.getByText('3/1000').isVisible()).toBe(false);
      const upload = page.getByRole('button', { name: 'Upload file' });
      await hidden(upload);
      const options = page.getByRole('button', { name: 'Add Options' });
      expect(await options.getAttribute('aria-expanded')).toBe('false');
      await options.click();
      await visible(upload);
      await visible(page.getByRole('button', { name: 'Add URL' }));
      expect(await options.getAttribute('aria-expanded')).toBe('true');
      await expectNoAxeViolations(page, `small screen chat with options (${theme})`);
    }
  });

  it('has no axe violations on the chat with messages and its dialogs, in light and dark', async () => {
    const { page, server } = s;
    await signedInAsNewUser(page, server);
    await chat('Hello there, how are you?');
    for (const theme of THEMES) {
      await chooseTheme(page, theme);
      await page.reload();
      await expectTheme(page, theme);
      await visible(articles().filter({ hasText: 'You said: Hello there' }));
      await expectNoAxeViolations(page, `chat with messages (${theme})`);

      await lastArticle().getByRole('button', { name: 'Download reply' }).click();
      await visible(page.getByRole('dialog', { name: 'Download File' }));
      await expectNoAxeViolations(page, `Download File dialog (${theme})`);
      await page.keyboard.press('Escape');
      await hidden(page.getByRole('dialog', { name: 'Download File' }));

      await page.getByRole('button', { name: 'Translate text' }).click();
      await visible(page.getByRole('dialog', { name: 'Translate Text' }));
      await expectNoAxeViolations(page, `Translate Text dialog (${theme})`);
      await page.keyboard.press('Escape');
    }
  });
});
