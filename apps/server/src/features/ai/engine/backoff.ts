/**
 * Waits between attempts at something that failed (a model download, a check of the model
 * server): the first wait is `minMs`, each further one doubles, up to `maxMs`. `now()` cuts the
 * current wait short (the Admin page's "Retry now"); `reset()` starts over after a success.
 */
export interface BackoffOptions {
  minMs: number;
  maxMs: number;
}

export class Backoff {
  private failures = 0;
  private wake: (() => void) | undefined;
  /** When the wait under way ends; null while not waiting. */
  nextAttemptAt: Date | null = null;

  constructor(private readonly opts: BackoffOptions) {}

  /** The wait after the failure just counted. */
  nextDelayMs(): number {
    return Math.min(this.opts.maxMs, this.opts.minMs * 2 ** Math.max(0, this.failures - 1));
  }

  /** Counts a failure and waits for the next attempt (resolves early on now() or abort). */
  async wait(signal?: AbortSignal): Promise<void> {
    this.failures += 1;
    await this.pause(this.nextDelayMs(), signal);
  }

  /** Waits `ms` without counting a failure; now() and abort end it early too. */
  async pause(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return;
    this.nextAttemptAt = new Date(Date.now() + ms);
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      this.wake = done;
      signal?.addEventListener('abort', done, { once: true });
    });
    this.nextAttemptAt = null;
  }

  /** Ends the wait under way at once; false when nothing was waiting. */
  now(): boolean {
    if (!this.wake) return false;
    this.wake();
    return true;
  }

  reset() {
    this.failures = 0;
  }
}
