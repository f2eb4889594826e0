import { Backoff, type BackoffOptions } from '../backoff';

/**
 * Whether a model server answers, checked in the background: every `intervalMs` while it does,
 * with backoff once it does not (so a server that is down is not hammered, and one that comes
 * back is seen within the backoff's ceiling). Calls that fail to connect report the failure at
 * once, so the first chat after a crash already turns the state to `down`.
 */
export interface ServerHealthOptions {
  /** Resolves when the server answers as it should; rejects with the reason otherwise. */
  check(signal: AbortSignal): Promise<void>;
  intervalMs: number;
  backoff: BackoffOptions;
  /** Told when the state changes (for the log). */
  onChange?(up: boolean, reason: string | undefined): void;
}

export const DEFAULT_HEALTH: Pick<ServerHealthOptions, 'intervalMs' | 'backoff'> = {
  intervalMs: 30_000,
  backoff: { minMs: 1_000, maxMs: 30_000 },
};

export class ServerHealth {
  /** `unknown` until the first check or call settles it. */
  state: 'unknown' | 'up' | 'down' = 'unknown';
  lastOkAt: Date | undefined;
  /** Why the server is down (for the operator). */
  reason: string | undefined;
  private readonly backoff: Backoff;
  private readonly stopped = new AbortController();

  constructor(private readonly opts: ServerHealthOptions) {
    this.backoff = new Backoff(opts.backoff);
  }

  /** Starts the background checks (the first one at once). */
  start() {
    void this.loop();
  }

  stop() {
    this.stopped.abort();
  }

  get nextCheckAt(): Date | null {
    return this.state === 'down' ? this.backoff.nextAttemptAt : null;
  }

  /** Checks again at once; false when no check was waiting. */
  checkNow(): boolean {
    return this.backoff.now();
  }

  reportSuccess() {
    this.lastOkAt = new Date();
    this.set('up', undefined);
  }

  reportFailure(reason: string) {
    const wasDown = this.state === 'down';
    this.set('down', reason);
    // A healthy-interval pause is cut short: from now on the checks follow the backoff.
    if (!wasDown) this.backoff.now();
  }

  private async loop() {
    const signal = this.stopped.signal;
    while (!signal.aborted) {
      try {
        await this.opts.check(AbortSignal.any([signal, AbortSignal.timeout(10_000)]));
        if (signal.aborted) return;
        this.reportSuccess();
      } catch (err) {
        if (signal.aborted) return;
        this.set('down', err instanceof Error ? err.message : String(err));
      }
      if (this.state === 'up') {
        this.backoff.reset();
        await this.backoff.pause(this.opts.intervalMs, signal);
      } else {
        await this.backoff.wait(signal);
      }
    }
  }

  private set(state: 'up' | 'down', reason: string | undefined) {
    // Only a change of state is told (the log): a server that stays down may fail in new ways.
    const changed = state !== this.state;
    const wasKnown = this.state !== 'unknown';
    this.state = state;
    this.reason = reason;
    if (changed && (wasKnown || state === 'down')) this.opts.onChange?.(state === 'up', reason);
  }
}
