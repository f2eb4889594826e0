import type { ChatTurn, GenerateOptions, LanguageModel, ModelStatus } from '../language-model';
import { estimateTokens } from '../../../lib/token-estimate';

/**
 * A provider the test drives by hand, for the scheduler's unit tests: every call waits until the
 * test sends its pieces and ends it, and stops when its signal aborts (as real providers do).
 */
export interface ScriptedCall {
  user: string;
  signal: AbortSignal;
  /** The call has ended: finished, failed or aborted. */
  ended: boolean;
  send(piece: string): void;
  finish(): void;
}

export class ScriptedModel implements LanguageModel {
  readonly calls: ScriptedCall[] = [];
  private current: ModelStatus = { available: true, state: 'ready', name: 'scripted' };
  private settled!: () => void;
  private settledPromise: Promise<void> = Promise.resolve();

  setStatus(status: Omit<ModelStatus, 'available' | 'name'>) {
    if (status.state === 'loading') this.settledPromise = new Promise((r) => (this.settled = r));
    this.current = { ...status, available: status.state === 'ready', name: 'scripted' };
    if (status.state !== 'loading') this.settled?.();
  }

  running(): ScriptedCall[] {
    return this.calls.filter((c) => !c.ended);
  }

  status() {
    return this.current;
  }
  contextTokens() {
    return 4096;
  }
  countTokens(text: string) {
    return estimateTokens(text);
  }
  async whenSettled() {
    await this.settledPromise;
    return this.current;
  }
  async close() {}

  async *stream(turns: ChatTurn[], opts: GenerateOptions = {}): AsyncGenerator<string> {
    const signal = opts.signal ?? new AbortController().signal;
    signal.throwIfAborted();
    const queue: string[] = [];
    let done = false;
    let wake: (() => void) | undefined;
    const call: ScriptedCall = {
      user: turns.at(-1)?.content ?? '',
      signal,
      ended: false,
      send(piece) {
        queue.push(piece);
        wake?.();
      },
      finish() {
        done = true;
        wake?.();
      },
    };
    this.calls.push(call);
    const onAbort = () => wake?.();
    signal.addEventListener('abort', onAbort);
    try {
      for (;;) {
        signal.throwIfAborted();
        if (queue.length) {
          yield queue.shift()!;
          continue;
        }
        if (done) return;
        await new Promise<void>((r) => (wake = r));
      }
    } finally {
      call.ended = true;
      signal.removeEventListener('abort', onAbort);
    }
  }
}
