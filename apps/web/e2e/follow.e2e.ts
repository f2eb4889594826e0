import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { AI_MARK, productReply } from './support/ai';
import { expectNoAxeViolations } from './support/axe';
import { openFileMenu, uploadViaApi } from './support/files';
import { useScenario } from './support/scenario';
import { expectTheme, hidden, visible } from './support/ui';
import { newUser, openSignedIn, registerViaApi } from './support/users';

/**
 * Asked for at length, the stand-in writes many paragraphs: a message taller than the screen. It
 * streams a paragraph at a time, so a reply is seen arriving without taking seconds to arrive.
 */
const LONG = 'Tell me at length';
const longReply = (question: string) => [
  ...Array.from(
    { length: 24 },
    (_, i) => `Paragraph ${i + 1} about ${question}: the keeper climbs the stairs again.\n\n`,
  ),
  `END OF ${question}`,
];

/** The wait between streamed pieces: long enough that a reply is seen arriving. */
const STREAMING = { pieceDelayMs: 40 };

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

/**
 * Whether the element's end is on screen: below the top bar and above the input bar (the chat's
 * sticky bottom area), so nothing of it is hidden behind either.
 */
async function endOnScreen(page: Page, target: Locator): Promise<boolean> {
  if ((await target.count()) === 0) return false;
  const input = page.getByRole('textbox', { name: 'Message' });
  const barTop = await input.evaluate((el) => {
    let e: Element | null = el;
    while (e && getComputedStyle(e).position !== 'sticky') e = e.parentElement;
    return e ? e.getBoundingClientRect().top : window.innerHeight;
  });
  const box = await target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const header = document.querySelector('header')?.getBoundingClientRect().bottom ?? 0;
    return { bottom: r.bottom, header };
  });
  return box.bottom <= barTop + 1 && box.bottom > box.header;
}

describe('the conversation follows the person (issue 39)', () => {
  // Replies stream in pieces, so a reply is seen arriving; the seeding turns it off.
  const s = useScenario({
    ai: {
      ...STREAMING,
      reply: (messages) => {
        const user = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
        if (user.startsWith(LONG)) return longReply(user.slice(LONG.length).trim());
        return productReply(messages);
      },
    },
  });

  const conversation = () => s.page.getByRole('log', { name: 'Conversation' });
  const articles = () => conversation().getByRole('article');
  const lastArticle = () => articles().last();
  const input = () => s.page.getByRole('textbox', { name: 'Message' });

  /** Waits until the newest message's end is on screen (rendered by the virtual list, not hidden). */
  async function newestOnScreen(what: string, text?: string) {
    await expect
      .poll(
        async () =>
          (!text || ((await lastArticle().textContent()) ?? '').includes(text)) &&
          endOnScreen(s.page, lastArticle()),
        { message: `newest message on screen: ${what}`, timeout: 20_000 },
      )
      .toBe(true);
  }

  /** Eight long exchanges, stored through the API before the page opens. */
  async function seed(token: string) {
    s.ai.setFailure({ pieceDelayMs: 0 });
    for (let i = 1; i <= 8; i++) {
      const res = await fetch(`${s.server.url}api/chat`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ text: `${LONG} exchange ${i}` }),
      });
      expect(res.status, await res.clone().text()).toBe(200);
    }
    s.ai.setFailure(STREAMING);
  }

  for (const viewport of WIDTHS) {
    it(`${viewport.width} px: newest message on screen on load, after sends, replies, job updates and answers`, async () => {
      const { page, server } = s;
      await page.setViewportSize(viewport);
      const user = newUser();
      const tokens = await registerViaApi(server, user);
      await seed(tokens.access_token);
      await uploadViaApi(server, tokens.access_token, 'keeper.txt', 'The keeper is Ada.\n');
      await openSignedIn(page, server, tokens);

      // On load: the newest stored reply, whole to its end, above the input bar.
      await newestOnScreen('on load', 'END OF exchange 8');

      // A sent message and its reply as it streams and once it is complete.
      await input().fill(`${LONG} exchange 9`);
      await input().press('Enter');
      await visible(articles().filter({ hasText: `${LONG} exchange 9` }));
      await newestOnScreen('while the reply streams', 'Paragraph 3 about exchange 9');
      await newestOnScreen('the complete reply', 'END OF exchange 9');

      // Scrolled up to read while a reply arrives: the page stays, a button brings the news. The
      // reply holds after its second paragraph until the page has scrolled away.
      s.ai.setFailure({ ...STREAMING, holdAfterPieces: 2 });
      await input().fill(`${LONG} exchange 10`);
      await input().press('Enter');
      await newestOnScreen('the reply starting', 'Paragraph 2 about exchange 10');
      await page.mouse.move(viewport.width / 2, viewport.height / 2);
      await page.mouse.wheel(0, -3000);
      await expect
        .poll(() => endOnScreen(page, lastArticle()), { message: 'scrolled away' })
        .toBe(false);
      s.ai.releaseHeld();
      s.ai.setFailure(STREAMING);
      const news = page.getByRole('button', { name: 'New messages' });
      await visible(news, 'New messages button', 20_000);
      // The reply ends (Send is back) and the page stayed where the person reads.
      await visible(page.getByRole('button', { name: 'Send' }), 'the reply ended', 30_000);
      // (Scrolled away, the virtual list may not even render it.)
      const newest = articles().filter({ hasText: 'END OF exchange 10' });
      expect(
        (await newest.count()) === 0 || !(await endOnScreen(page, newest)),
        'the page stayed where it was read',
      ).toBe(true);
      await news.click();
      await newestOnScreen('after New messages', 'END OF exchange 10');
      await hidden(news);

      // Work started from the file drawer: its progress card, then its result.
      const summarize = await openFileMenu(page, 'keeper.txt');
      await summarize.getByRole('menuitem', { name: 'Summarize' }).click();
      await visible(articles().filter({ hasText: 'Starting Summarize for keeper.txt' }));
      await newestOnScreen('the summary', AI_MARK.summary);

      // Questions about the file: the mode stays, with a chip; the answer streams in view.
      const ask = await openFileMenu(page, 'keeper.txt');
      await ask.getByRole('menuitem', { name: 'Ask Questions' }).click();
      const chip = page.getByRole('status').filter({ hasText: 'Questions about keeper.txt' });
      await visible(chip, 'question mode chip');
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { seen: string[] }).seen = seen;
        new MutationObserver(() => {
          const last = [...document.querySelectorAll('[role="log"] article')].pop();
          seen.push(last?.textContent ?? '');
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      for (const question of ['Who keeps the light?', 'And who lit it?']) {
        expect(await input().getAttribute('placeholder')).toBe('Ask a question about keeper.txt');
        await input().fill(question);
        await input().press('Enter');
        await newestOnScreen(`the answer to "${question}"`, 'Sources: Paragraph 1');
        await visible(chip, 'question mode still on');
      }
      const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
      // Part of the answer showed before the whole of it (with its sources) arrived.
      expect(
        seen.some((t) => t.includes('ANSWER') && !t.includes('Sources:')),
        'the answer streamed',
      ).toBe(true);
      for (const theme of ['light', 'dark'] as const) {
        if (theme === 'dark') await page.getByRole('button', { name: 'Change theme' }).click();
        await expectTheme(page, theme);
        await expectNoAxeViolations(page, `chat in question mode, ${viewport.width} px (${theme})`);
      }
      await page.getByRole('button', { name: 'Change theme' }).click();
      await chip.getByRole('button', { name: 'Stop asking about keeper.txt' }).click();
      await hidden(chip);
      expect(await input().getAttribute('placeholder')).toBe('Ask anything');

      // A reload opens at the newest message.
      await page.reload();
      await newestOnScreen('after a reload', 'Sources: Paragraph 1');
    }, 240_000);
  }
});
