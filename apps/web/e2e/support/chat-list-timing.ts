// Chat list with 1,000 messages, measured in a real browser: the time the web app takes to show a
// stored conversation of 1,000 messages (from the history answer to the last message on screen),
// and the time from pressing Enter to the new message appearing under it. Shared by the
// benchmark (bench/chat-list.bench.ts, which holds the targets) and the browser suite
// (e2e/chat-list.e2e.ts, which prints the figures and checks the behaviour).
//
// bench/ compiles without the DOM library, so this file uses no DOM types: the page functions
// cast `globalThis` to `PageGlobals` below.
import type { Page } from 'playwright-core';
import type { ProductServer } from './product-server';

export const MESSAGES = 1000;

/** The text every stored message starts with (`Message 0:` … `Message 999:`). */
export const messageLabel = (i: number) => `Message ${i}:`;

/** The stored conversation (GET /api/chat/history answer): 1,000 messages, oldest first. */
export const longHistory = {
  current: 0,
  max: 20,
  started_at: null,
  messages: Array.from({ length: MESSAGES }, (_, i) => ({
    id: i + 1,
    role: i % 2 === 0 ? 'user' : 'assistant',
    text:
      i % 2 === 0
        ? `${messageLabel(i)} what about lighthouse number ${i}?`
        : `${messageLabel(i)} **Lighthouse ${i}** stands on a rock.\n\n- built long ago\n- still lit`,
    created_at: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString(),
  })),
};

/** The messages of the conversation as the page shows them. */
export const ARTICLES = '[role="log"] article';

/** The few browser globals the page functions below use (they run in the browser). */
interface PageGlobals {
  document: {
    querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }>;
    body: unknown;
    addEventListener(type: string, listener: () => void, options: object): void;
  };
  performance: {
    now(): number;
    getEntriesByType(type: string): { name: string; responseEnd?: number }[];
  };
  MutationObserver: new (callback: () => void) => {
    observe(target: unknown, options: object): void;
    disconnect(): void;
  };
  requestAnimationFrame(callback: () => void): void;
  localStorage: { setItem(key: string, value: string): void };
  pressedAt?: number;
  appendMs?: number;
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Registers a fresh user through the API, answers the page's GET /api/chat/history with the
 * 1,000 messages from the browser's network layer (so the figures are the web app's own work:
 * parse, validate, virtualised render) and signs the page in. The page then opens `server.url`.
 */
export async function prepareLongConversation(page: Page, server: ProductServer): Promise<void> {
  const email = `chat-list-${process.pid}-${Date.now()}@example.com`;
  const res = await fetch(`${server.url}api/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: 'chat-list-password-1', first_name: 'Bench' }),
  });
  if (!res.ok) throw new Error(`register ${email}: HTTP ${res.status}`);
  const tokens = (await res.json()) as { access_token: string; refresh_token: string };
  await page.route('**/api/chat/history', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify(longHistory),
    }),
  );
  await page.goto(`${server.url}about`);
  await page.evaluate((t) => {
    const { localStorage } = globalThis as unknown as PageGlobals;
    localStorage.setItem('accessToken', t.access_token);
    localStorage.setItem('refreshToken', t.refresh_token);
    localStorage.setItem('firstName', 'Bench');
  }, tokens);
}

/** The text of the message appended in run `n`. */
export const appendedText = (n: number) => `Appended question ${n}`;

export interface ChatListTiming {
  /** History answer → last of the 1,000 messages shown, ms. */
  renderMs: number;
  /** Enter → the new message painted under the others, ms. */
  appendMs: number;
}

/**
 * One measurement: opens the chat (the page must have been through `prepareLongConversation`),
 * waits for the last stored message, then sends `appendedText(n)` and waits for it to be painted.
 */
export async function measureChatListOnce(
  page: Page,
  url: string,
  n: number,
): Promise<ChatListTiming> {
  await page.goto(url);
  await page.waitForFunction(
    ({ selector, last }) =>
      Array.from((globalThis as unknown as PageGlobals).document.querySelectorAll(selector)).some(
        (a) => a.textContent?.includes(last),
      ),
    { selector: ARTICLES, last: messageLabel(MESSAGES - 1) },
    { polling: 'raf', timeout: 30_000 },
  );
  const renderMs = await page.evaluate(() => {
    const { performance } = globalThis as unknown as PageGlobals;
    const shown = performance.now();
    const entry = performance
      .getEntriesByType('resource')
      .find((e) => e.name.includes('/api/chat/history'));
    return shown - (entry?.responseEnd ?? 0);
  });

  const text = appendedText(n);
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill(text);
  await page.evaluate(
    ({ selector, t }) => {
      const w = globalThis as unknown as PageGlobals;
      const { document, MutationObserver, performance } = w;
      document.addEventListener(
        'keydown',
        () => {
          w.pressedAt = performance.now();
        },
        { capture: true, once: true },
      );
      const observer = new MutationObserver(() => {
        const found = Array.from(document.querySelectorAll(selector)).some((a) =>
          a.textContent?.includes(t),
        );
        if (found && w.pressedAt !== undefined) {
          // The next frame is when the new message is painted.
          w.requestAnimationFrame(() => {
            w.appendMs = performance.now() - w.pressedAt!;
          });
          observer.disconnect();
        }
      });
      observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    },
    { selector: ARTICLES, t: text },
  );
  await input.press('Enter');
  await page.waitForFunction(() => (globalThis as unknown as PageGlobals).appendMs, null, {
    polling: 'raf',
  });
  const appendMs = await page.evaluate(
    () => (globalThis as unknown as PageGlobals).appendMs ?? NaN,
  );
  return { renderMs, appendMs };
}

/**
 * A warm-up run (compiles the app's code), then `runs` measured runs; `onRun` sees each one.
 * Returns every run and the medians. The page is left on the chat after the last run, with its
 * appended message.
 */
export async function measureChatList(
  page: Page,
  server: ProductServer,
  runs: number,
  onRun: (run: number, timing: ChatListTiming) => void = () => {},
): Promise<{ runs: ChatListTiming[]; renderMs: number; appendMs: number }> {
  await prepareLongConversation(page, server);
  await measureChatListOnce(page, server.url, 0);
  const all: ChatListTiming[] = [];
  for (let i = 1; i <= runs; i++) {
    const timing = await measureChatListOnce(page, server.url, i);
    all.push(timing);
    onRun(i, timing);
  }
  return {
    runs: all,
    renderMs: median(all.map((r) => r.renderMs)),
    appendMs: median(all.map((r) => r.appendMs)),
  };
}
