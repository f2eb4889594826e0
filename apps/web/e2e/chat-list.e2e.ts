import { describe, expect, it } from 'vitest';
import {
  appendedText,
  ARTICLES,
  measureChatList,
  MESSAGES,
  messageLabel,
} from './support/chat-list-timing';
import { untraced } from './support/browser';
import { useScenario } from './support/scenario';
import { visible } from './support/ui';

/** Measured runs (after one warm-up): few, to keep the suite fast; bench/ runs more. */
const RUNS = 2;
/** Message elements in the page at once: a virtualised list keeps a window, not all 1,000. */
const MAX_RENDERED = 100;

describe('chat list with 1,000 messages', () => {
  // A model answers (with none, Send stays disabled); its answer does not repeat the question.
  const s = useScenario({ ai: { reply: () => 'Noted.' } });

  const conversation = () => s.page.getByRole('log', { name: 'Conversation' });
  const article = (text: string) => conversation().getByRole('article').filter({ hasText: text });
  /** The text of every message element in the page, in order. */
  const renderedTexts = () =>
    s.page.evaluate(
      (selector) => Array.from(document.querySelectorAll(selector), (a) => a.textContent ?? ''),
      ARTICLES,
    );
  /** Scrolls the window to the top (0) or the bottom (1) of the page. */
  const scrollTo = (end: 0 | 1) =>
    s.page.evaluate((e) => window.scrollTo(0, e * document.documentElement.scrollHeight), end);

  it('prints the time to render and to append; first, last and new message reachable; virtualised', async () => {
    const { page, server } = s;
    // The same measurement as bench/chat-list.bench.ts (where the timing targets live), with the
    // scenario's tracing (E2E_TRACE=1) paused: its screenshots and snapshots would be timed too.
    const timing = await untraced(s.context, () => measureChatList(page, server, RUNS));
    console.log(
      `chat list, ${MESSAGES.toLocaleString('en')} messages: render ${timing.renderMs.toFixed(0)} ms, ` +
        `append ${timing.appendMs.toFixed(0)} ms (median of ${RUNS})`,
    );
    // Each run gave figures (no speed check here).
    for (const run of timing.runs) {
      expect(run.renderMs).toBeGreaterThan(0);
      expect(run.appendMs).toBeGreaterThan(0);
    }

    // The page is at the bottom: the last stored message, then the one just sent, and no stored
    // message after it.
    const last = messageLabel(MESSAGES - 1);
    const sent = appendedText(RUNS);
    await visible(article(last), 'last stored message');
    await visible(article(sent), 'appended message');
    let texts = await renderedTexts();
    const sentAt = texts.findIndex((t) => t.includes(sent));
    expect(texts[sentAt - 1], 'message before the appended one').toContain(last);
    expect(
      texts.slice(sentAt + 1).filter((t) => /Message \d+:/.test(t)),
      'stored messages after the appended one',
    ).toEqual([]);
    expect(texts.length, 'message elements at the bottom').toBeLessThan(MAX_RENDERED);

    // The answer to the appended question (the fake model's) replaces its
    // 'Loading...' placeholder, and the list follows the output with a smooth scroll: wait for
    // both to finish before scrolling away, or that scroll races the scroll up.
    await expect
      .poll(() => conversation().getByText('Loading...').count(), {
        message: 'the answer to the appended question',
        timeout: 15_000,
      })
      .toBe(0);
    let previousY = NaN;
    await expect
      .poll(
        async () => {
          const y = await page.evaluate(() => window.scrollY);
          const still = y === previousY;
          previousY = y;
          return still;
        },
        { message: 'the list done scrolling', interval: 300, timeout: 10_000 },
      )
      .toBe(true);

    // Scrolling up reaches the first message; the last and the appended one are then no longer
    // in the page (the virtual list unmounts what scrolled away on its next frames, not at once).
    const first = messageLabel(0);
    await expect
      .poll(
        async () => {
          await scrollTo(0);
          if (!(await article(first).isVisible())) return 'first message not visible';
          texts = await renderedTexts();
          return texts.some((t) => t.includes(last) || t.includes(sent))
            ? 'last or appended message still in the page'
            : 'ok';
        },
        { message: 'the top of the conversation, virtualised', timeout: 15_000 },
      )
      .toBe('ok');
    expect(texts.length, 'message elements at the top').toBeLessThan(MAX_RENDERED);

    // And back down: the last stored message, then the appended one, as before.
    await expect
      .poll(
        async () => {
          await scrollTo(1);
          if (!(await article(sent).isVisible())) return false;
          texts = await renderedTexts();
          return texts[texts.findIndex((t) => t.includes(sent)) - 1]?.includes(last) ?? false;
        },
        { message: 'last and appended message reachable by scrolling down', timeout: 15_000 },
      )
      .toBe(true);
    await expect
      .poll(
        async () => {
          texts = await renderedTexts();
          return texts.some((t) => t.includes(first));
        },
        { message: 'first message unmounted at the bottom', timeout: 5_000 },
      )
      .toBe(false);
    expect(texts.length, 'message elements back at the bottom').toBeLessThan(MAX_RENDERED);
  });
});
