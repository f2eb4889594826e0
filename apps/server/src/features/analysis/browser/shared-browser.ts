import type { Browser, BrowserContext, Page } from 'playwright-core';
import { HttpError } from '../../../lib/http-error';
import { CHROMIUM_ARGS } from './chromium-flags';

/** The browser could not be started (missing, broken, or not a Chromium): analysis falls back. */
export class BrowserUnavailable extends Error {
  constructor(executablePath: string, cause: unknown) {
    super(`Chromium at ${executablePath} could not be started`, { cause });
  }
}

/**
 * The browser was closed (the process is stopping) while a page was in use: the page was not
 * audited, and says nothing about the page itself.
 */
export class BrowserClosed extends Error {
  constructor() {
    super('The browser was closed while the page was audited');
  }
}

/** A caller gives up on a browser that keeps crashing at start (its page then fails). */
const MAX_LAUNCHES_PER_CALL = 3;

interface Started {
  browser: Browser;
  context: BrowserContext;
}

/**
 * One warm headless Chromium per executable, shared by every analysis of the process: launched on
 * first use (a launch costs more than most audits), relaunched when it crashed or was closed, and
 * closed when the app shuts down. Analyses share one context (no page script runs and no response
 * we hand the browser sets a cookie, so there is no state to leak between them) and each gets its
 * own page, closed on every path. A spare page is opened ahead of need, with the init script
 * (axe) already in it, so an analysis does not wait for a renderer to start.
 */
export class SharedBrowser {
  private launching?: Promise<Started>;
  private spare?: Promise<Page | undefined>;
  private spareReady?: Page;
  /** Browsers started so far (one, unless one crashed or the app closed it). */
  launches = 0;
  /** Times close() was called: a page that saw it happen failed because of it. */
  private closures = 0;

  constructor(
    readonly executablePath: string,
    /** Script run in every document before it is audited (never subject to the page's CSP). */
    private readonly initScript?: string,
    private readonly launchTimeoutMs = 20_000,
  ) {}

  private async started(): Promise<Started> {
    for (let attempt = 1; ; attempt++) {
      const launching = (this.launching ??= this.launch());
      const started = await launching;
      if (started.browser.isConnected() || attempt === MAX_LAUNCHES_PER_CALL) return started;
      // Crashed, and the disconnect has not been reported yet. Whoever notices first forgets it
      // (forget only clears the browser it was given), so callers that noticed the same crash
      // all wait on the one new launch instead of each starting a browser of its own.
      this.forget(launching);
    }
  }

  private launch(): Promise<Started> {
    this.launches += 1;
    const launching = (async () => {
      // playwright-core takes over a second to load: only when a page is first analysed.
      const { chromium } = await import('playwright-core');
      const browser = await chromium.launch({
        executablePath: this.executablePath,
        headless: true,
        args: CHROMIUM_ARGS,
        timeout: this.launchTimeoutMs,
      });
      try {
        const context = await browser.newContext({ serviceWorkers: 'block' });
        if (this.initScript) await context.addInitScript(this.initScript);
        return { browser, context };
      } catch (err) {
        await browser.close().catch(() => undefined);
        throw err;
      }
    })();
    // A failed launch is retried by the next analysis; a crashed browser is replaced by it.
    launching.then(
      ({ browser }) => browser.on('disconnected', () => this.forget(launching)),
      () => this.forget(launching),
    );
    return launching;
  }

  private forget(launching: Promise<Started> | undefined) {
    if (!launching || this.launching !== launching) return;
    this.launching = undefined;
    this.spare = undefined;
    this.spareReady = undefined;
  }

  /** Opens the next analysis's page in the background. */
  private prepareSpare(context: BrowserContext) {
    if (this.spare) return;
    const spare = context.newPage().then(
      (page) => {
        if (this.spare === spare) this.spareReady = page;
        return page;
      },
      () => undefined, // the next analysis opens its own
    );
    this.spare = spare;
  }

  private async page(context: BrowserContext): Promise<Page> {
    // The spare is taken before any await: an analysis starting while it opens must not get it too.
    const taken = this.spare;
    this.spare = undefined;
    this.spareReady = undefined;
    const spare = await taken;
    if (spare && !spare.isClosed() && spare.context() === context) return spare;
    return context.newPage();
  }

  /**
   * Runs `use` on a fresh page, which is closed whatever happens: success, error, the deadline or
   * the caller's abort (closing the page also ends whatever `use` still awaits).
   */
  async withPage<T>(
    limits: { timeoutMs: number; signal?: AbortSignal },
    use: (page: Page) => Promise<T>,
  ): Promise<T> {
    limits.signal?.throwIfAborted();
    const closures = this.closures;
    let started: Started;
    try {
      started = await this.started();
    } catch (err) {
      throw new BrowserUnavailable(this.executablePath, err);
    }
    limits.signal?.throwIfAborted(); // the spare page stays for the next analysis
    const page = await this.page(started.context);
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    try {
      // Aborted while the browser started or the page opened: a listener added now would never
      // fire, and the whole audit would run for nobody.
      limits.signal?.throwIfAborted();
      const stopped = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new HttpError(504, 'The page took too long to render')),
          limits.timeoutMs,
        );
        onAbort = () => reject(limits.signal?.reason ?? new Error('aborted'));
        limits.signal?.addEventListener('abort', onAbort, { once: true });
      });
      const work = use(page);
      work.catch(() => undefined); // once stopped, its rejection (page closed) is expected
      return await Promise.race([work, stopped]);
    } catch (err) {
      // The caller's abort says why itself; a close under the page is not the page's failure.
      if (this.closures !== closures && !limits.signal?.aborted) throw new BrowserClosed();
      throw err;
    } finally {
      clearTimeout(timer);
      if (onAbort) limits.signal?.removeEventListener('abort', onAbort);
      await page.close().catch(() => undefined); // a crashed browser has nothing left to close
      if (started.browser.isConnected()) this.prepareSpare(started.context);
    }
  }

  /** Pages open right now other than the spare (0 when idle): what the tests watch for leaks. */
  async openPages(): Promise<number> {
    const started = await this.launching?.catch(() => undefined);
    if (!started?.browser.isConnected()) return 0;
    await this.spare; // settle a spare being opened, so it is told apart
    return started.context.pages().filter((p) => p !== this.spareReady).length;
  }

  /** Whether a browser process is up (launched and not crashed). */
  async isRunning(): Promise<boolean> {
    const started = await this.launching?.catch(() => undefined);
    return Boolean(started?.browser.isConnected());
  }

  async close(): Promise<void> {
    this.closures += 1;
    const launching = this.launching;
    this.forget(launching);
    const started = await launching?.catch(() => undefined);
    await started?.browser.close().catch(() => undefined);
  }
}

const shared = new Map<string, SharedBrowser>();

/** The process's browser for this executable (one purpose, so one init script, per process). */
export function sharedBrowser(executablePath: string, initScript: string): SharedBrowser {
  let b = shared.get(executablePath);
  if (!b) {
    b = new SharedBrowser(executablePath, initScript);
    shared.set(executablePath, b);
  }
  return b;
}

/** Closes every shared browser; the next analysis launches anew. */
export async function closeSharedBrowsers(): Promise<void> {
  await Promise.all([...shared.values()].map((b) => b.close()));
}

let users = 0;

/**
 * An app of this process that audits in the shared browsers (tests run several apps in one
 * process): the last one to call the release it gets closes them, so an app that stops never
 * closes a browser another app's audit is using.
 */
export function useSharedBrowsers(): () => Promise<void> {
  users += 1;
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    users -= 1;
    if (users === 0) await closeSharedBrowsers();
  };
}
