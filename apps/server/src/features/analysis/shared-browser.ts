import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { HttpError } from '../../lib/http-error';
import { CHROMIUM_ARGS } from './chromium-flags';

/** The browser could not be started (missing, broken, or not a Chromium): analysis falls back. */
export class BrowserUnavailable extends Error {
  constructor(executablePath: string, cause: unknown) {
    super(`Chromium at ${executablePath} could not be started`, { cause });
  }
}

/**
 * One warm headless Chromium per executable, shared by every analysis of the process: launched on
 * first use (a launch costs more than most audits), relaunched when it crashed or was closed, and
 * closed when the app shuts down. Each analysis gets its own context (own routes, no shared
 * cookies or cache), closed on every path.
 */
export class SharedBrowser {
  private launching?: Promise<Browser>;
  /** Browsers started so far (one, unless one crashed or the app closed it). */
  launches = 0;

  constructor(
    readonly executablePath: string,
    private readonly launchTimeoutMs = 20_000,
  ) {}

  private async browser(): Promise<Browser> {
    this.launching ??= this.launch();
    const browser = await this.launching;
    if (browser.isConnected()) return browser;
    // Crashed, and the disconnect has not been reported yet: start another.
    if (this.launching) this.launching = undefined;
    this.launching = this.launch();
    return this.launching;
  }

  private launch(): Promise<Browser> {
    this.launches += 1;
    const launching = chromium.launch({
      executablePath: this.executablePath,
      headless: true,
      args: CHROMIUM_ARGS,
      timeout: this.launchTimeoutMs,
    });
    const forget = () => {
      if (this.launching === launching) this.launching = undefined;
    };
    // A failed launch is retried by the next analysis; a crashed browser is replaced by it.
    launching.then((b) => b.on('disconnected', forget), forget);
    return launching;
  }

  /**
   * Runs `use` in a fresh context, which is closed whatever happens: success, error, the deadline
   * or the caller's abort (closing the context also ends whatever `use` still awaits).
   */
  async withContext<T>(
    limits: { timeoutMs: number; signal?: AbortSignal },
    use: (context: BrowserContext) => Promise<T>,
  ): Promise<T> {
    limits.signal?.throwIfAborted();
    let browser: Browser;
    try {
      browser = await this.browser();
    } catch (err) {
      throw new BrowserUnavailable(this.executablePath, err);
    }
    const context = await browser.newContext({ serviceWorkers: 'block' });
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const stopped = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new HttpError(504, 'The page took too long to render')),
        limits.timeoutMs,
      );
      onAbort = () => reject(limits.signal?.reason ?? new Error('aborted'));
      limits.signal?.addEventListener('abort', onAbort, { once: true });
    });
    const work = use(context);
    work.catch(() => undefined); // once stopped, its rejection (context closed) is expected
    try {
      return await Promise.race([work, stopped]);
    } finally {
      clearTimeout(timer);
      if (onAbort) limits.signal?.removeEventListener('abort', onAbort);
      await context.close().catch(() => undefined); // a crashed browser has nothing left to close
    }
  }

  /** Pages open right now (0 when idle): what the tests watch for leaks. */
  async openPages(): Promise<number> {
    const browser = await this.launching?.catch(() => undefined);
    if (!browser?.isConnected()) return 0;
    return browser.contexts().reduce((n, c) => n + c.pages().length, 0);
  }

  /** Whether a browser process is up (launched and not crashed). */
  async isRunning(): Promise<boolean> {
    const browser = await this.launching?.catch(() => undefined);
    return Boolean(browser?.isConnected());
  }

  async close(): Promise<void> {
    const launching = this.launching;
    this.launching = undefined;
    const browser = await launching?.catch(() => undefined);
    await browser?.close().catch(() => undefined);
  }
}

const shared = new Map<string, SharedBrowser>();

/** The process's browser for this executable. */
export function sharedBrowser(executablePath: string): SharedBrowser {
  let b = shared.get(executablePath);
  if (!b) {
    b = new SharedBrowser(executablePath);
    shared.set(executablePath, b);
  }
  return b;
}

/** Closes every shared browser (the app's onClose hook); the next analysis launches anew. */
export async function closeSharedBrowsers(): Promise<void> {
  await Promise.all([...shared.values()].map((b) => b.close()));
}
