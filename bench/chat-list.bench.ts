// Chat list in a real browser (issue "Browser end-to-end suite"): with a stored conversation of
// 1,000 messages, the time the web app takes to show it (from the history answer to the last
// message on screen), and the time from pressing Enter to the new message appearing under it.
// Production build, Debian's headless Chromium, the product server on loopback. The measuring
// itself is shared with the browser suite (apps/web/e2e/chat-list.e2e.ts); the targets live here.
import { startProductAi } from '../apps/web/e2e/support/ai';
import { launchBrowser } from '../apps/web/e2e/support/browser';
import { MESSAGES, measureChatList } from '../apps/web/e2e/support/chat-list-timing';
import { startProductServer } from '../apps/web/e2e/support/product-server';
import { machineLine, result } from './lib/machine';

const RUNS = 5;
const RENDER_TARGET_MS = 1000;
/** "Good" interaction to next paint (web.dev INP threshold). */
const APPEND_TARGET_MS = 200;

async function main() {
  console.log(machineLine());
  // A model answers (the fake one, on loopback): with none, Send stays disabled.
  const ai = await startProductAi();
  const server = await startProductServer({ AI_BASE_URL: ai.url });
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const { renderMs: render, appendMs: append } = await measureChatList(
      page,
      server,
      RUNS,
      (i, { renderMs, appendMs }) =>
        console.log(`run ${i}: render ${renderMs.toFixed(0)} ms, append ${appendMs.toFixed(0)} ms`),
    );
    result({
      name: `render ${MESSAGES} messages (history answer → last message shown), median of ${RUNS}`,
      value: Math.round(render),
      unit: 'ms',
      target: `≤ ${RENDER_TARGET_MS} ms`,
      met: render <= RENDER_TARGET_MS,
    });
    result({
      name: `append one message to ${MESSAGES} (Enter → painted), median of ${RUNS}`,
      value: Math.round(append),
      unit: 'ms',
      target: `≤ ${APPEND_TARGET_MS} ms`,
      met: append <= APPEND_TARGET_MS,
    });
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
    await ai.close();
  }
}

await main();
