import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
// One list of launch flags for every Chromium the project starts (machine flags + a resolver
// that reaches nothing off this machine): the page analyser's.
import { CHROMIUM_ARGS } from '../../../server/src/features/analysis/browser/chromium-flags';

/** Debian's Chromium; never a downloaded browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: install Debian's chromium (.ci/run does) or set CHROMIUM_PATH`,
    );
  }
  // Playwright gives each launch its own empty profile directory.
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

export const RESULTS_DIR = path.resolve('test-results');

/**
 * Playwright traces (a screencast and a DOM snapshot at every step) with E2E_TRACE=1, to debug a
 * failure; a failed scenario always leaves its screenshot. Off by default: the browser files run
 * a fifth faster without them (~800 s against ~1,000 s), and the races their slower pace hid are
 * fixed (the file chooser's interception, Tab before the chat's input bar rendered).
 */
const TRACE = process.env.E2E_TRACE === '1';
const TRACE_OPTIONS = { screenshots: true, snapshots: true };

/** Runs `work` untraced (a timing the trace's screenshots would distort), then traces again. */
export async function untraced<T>(context: BrowserContext, work: () => Promise<T>): Promise<T> {
  if (TRACE) await context.tracing.stop();
  try {
    return await work();
  } finally {
    if (TRACE) await context.tracing.start(TRACE_OPTIONS);
  }
}

/** A fresh context (own storage) with tracing on, so a failure leaves a trace to inspect. */
export async function newContext(
  browser: Browser,
  opts: { viewport?: { width: number; height: number } } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: opts.viewport ?? { width: 1280, height: 800 },
  });
  // Fail a stuck step well before the test timeout, so the report says which step it was.
  context.setDefaultTimeout(15_000);
  if (TRACE) await context.tracing.start(TRACE_OPTIONS);
  return context;
}

/** Saves a screenshot and the trace of a failed scenario under test-results/. */
export async function saveFailure(
  context: BrowserContext,
  page: Page | undefined,
  name: string,
  problems: string[] = [],
) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const safe = name.replace(/[^\w.-]+/g, '_').slice(0, 120);
  if (problems.length) {
    writeFileSync(path.join(RESULTS_DIR, `${safe}.log`), `${problems.join('\n')}\n`);
    console.error(`browser problems in "${name}":\n  ${problems.join('\n  ')}`);
  }
  if (page && !page.isClosed()) {
    await page
      .screenshot({ path: path.join(RESULTS_DIR, `${safe}.png`), fullPage: true })
      .catch(() => {});
  }
  if (TRACE) {
    await context.tracing
      .stop({ path: path.join(RESULTS_DIR, `${safe}.trace.zip`) })
      .catch(() => {});
  }
}
