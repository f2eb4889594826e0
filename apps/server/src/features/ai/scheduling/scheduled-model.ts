import { linkSignals } from '../../../lib/linked-signal';
import { CallEstimator } from './call-estimator';
import {
  assertModelUsable,
  ModelUnavailableError,
  promptTokens,
  type ChatTurn,
  type GenerateOptions,
  type LanguageModel,
  type ModelStatus,
  type SlotCall,
} from '../language-model';
import { Scheduler, type Slot } from './scheduler';
import type { SharedSlotLease, SharedSlots } from './shared-slots';

/**
 * The model every feature uses: the provider behind the scheduler. Each call waits for the model
 * while it loads (up to AI_LOAD_WAIT_MS), then for its turn, then runs in a slot.
 * - Interactive calls stream as the provider produces them.
 * - Batch calls are read whole inside the slot and handed over once complete, so a preempted
 *   call can start again from nothing without its caller ever seeing the lost half.
 */
export interface ScheduledModelOptions {
  /** Calls the model runs at once: LLAMA_SEQUENCES, or AI_PARALLEL for an OpenAI-compatible server. */
  capacity: number;
  preempt: boolean;
  /** The model server's slots share one processor: document calls yield to a person's prompt. */
  yieldToPeople?: boolean;
  loadWaitMs: number;
  /** Told of each preemption with the run time the preempted call loses at most (metrics). */
  onPreempted?: (ranMs: number) => void;
  /**
   * The model server's slots shared with the deployment's other processes (shared-slots.ts): a
   * call that has its turn here also takes one of them, so the server never gets more than
   * AI_PARALLEL calls from all processes together.
   */
  shared?: Pick<SharedSlots, 'acquire' | 'close'>;
}

const DEFAULT_MAX_TOKENS = 512;

export class ScheduledModel implements LanguageModel {
  readonly scheduler: Scheduler;
  readonly estimator = new CallEstimator();

  constructor(
    private readonly inner: LanguageModel,
    private readonly opts: ScheduledModelOptions,
  ) {
    this.scheduler = new Scheduler({
      capacity: opts.capacity,
      preempt: opts.preempt,
      yieldToPeople: opts.yieldToPeople,
      onPreempted: opts.onPreempted,
    });
  }

  status(): ModelStatus {
    return { ...this.inner.status(), queued: this.scheduler.waiting };
  }

  retryNow(): boolean {
    return this.inner.retryNow?.() ?? false;
  }

  contextTokens() {
    return this.inner.contextTokens();
  }

  countTokens(text: string) {
    return this.inner.countTokens(text);
  }

  whenSettled() {
    return this.inner.whenSettled();
  }

  async close() {
    this.scheduler.rejectAll(new ModelUnavailableError('the server is shutting down'));
    await this.opts.shared?.close();
    await this.inner.close();
  }

  async *stream(turns: ChatTurn[], opts: GenerateOptions = {}): AsyncGenerator<string> {
    await this.untilLoaded(opts.signal);
    // Said, never assumed: a call that names no priority is document work.
    const priority = opts.priority ?? 'batch';
    const maxTokens = opts.maxTokens ?? DEFAULT_MAX_TOKENS;
    const prompt = promptTokens(this.inner, turns);
    const request = {
      priority,
      owner: String(opts.owner ?? ''),
      estimateMs: this.estimator.estimateMs(prompt, maxTokens),
      work: opts.work,
      signal: opts.signal,
    };
    for (let requeued = false; ; requeued = true) {
      const slot = await this.scheduler.acquire({ ...request, requeued });
      if (priority === 'interactive') {
        try {
          yield* this.run(slot, turns, opts, prompt, maxTokens);
        } finally {
          slot.release();
        }
        return;
      }
      let whole = '';
      try {
        for await (const piece of this.run(slot, turns, opts, prompt, maxTokens)) whole += piece;
      } catch (err) {
        if (slot.preempted && !opts.signal?.aborted) continue;
        throw err;
      } finally {
        slot.release();
      }
      if (whole) yield whole;
      return;
    }
  }

  /** Another call to the model server in a slot (LanguageModel.inSlot); taken back: run again. */
  async inSlot<T>(call: SlotCall, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const owner = String(call.owner ?? '');
    const request = { ...call, owner };
    for (let requeued = false; ; requeued = true) {
      const slot = await this.scheduler.acquire({ ...request, requeued });
      const { signal, dispose } = linkSignals(call.signal, slot.signal);
      let lease: SharedSlotLease | undefined;
      try {
        lease = await this.opts.shared?.acquire(call.priority, owner, signal);
        return await run(signal);
      } catch (err) {
        if (slot.preempted && !call.signal?.aborted) continue;
        throw err;
      } finally {
        dispose();
        await lease?.release();
        slot.release();
      }
    }
  }

  /** One call in its slot, timed for the estimates. */
  private async *run(
    slot: Slot,
    turns: ChatTurn[],
    opts: GenerateOptions,
    promptTokens: number,
    maxTokens: number,
  ): AsyncGenerator<string> {
    const { signal, dispose } = linkSignals(opts.signal, slot.signal);
    let lease: SharedSlotLease | undefined;
    let firstAt = 0;
    let reply = '';
    let started = performance.now();
    let told = false;
    try {
      lease = await this.opts.shared?.acquire(
        opts.priority ?? 'batch',
        String(opts.owner ?? ''),
        signal,
      );
      started = performance.now();
      // The work learns which of its calls run, and how long they take against their estimate.
      opts.work?.callStarted?.(this.estimator.estimateMs(promptTokens, maxTokens), {
        promptTokens,
        maxTokens,
      });
      told = true;
      // With one slot there is nothing to choose; with more, the call's slot keeps its cache.
      const slotIndex = this.scheduler.capacity >= 2 ? (lease?.slot ?? slot.index) : undefined;
      for await (const piece of this.inner.stream(turns, {
        ...opts,
        priority: opts.priority ?? 'batch',
        maxTokens,
        signal,
        ...(slotIndex !== undefined ? { slot: slotIndex } : {}),
      })) {
        if (!firstAt) {
          firstAt = performance.now();
          slot.evaluated();
        }
        reply += piece;
        yield piece;
      }
    } finally {
      dispose();
      await lease?.release();
      if (told) {
        // A call cut short (preempted, cancelled) says nothing of how long replies are.
        const outcome =
          firstAt && !signal.aborted
            ? { replyTokens: this.inner.countTokens(reply), firstPieceMs: firstAt - started }
            : undefined;
        opts.work?.callEnded?.(performance.now() - started, outcome);
      }
    }
    if (!firstAt) return;
    this.estimator.observe({
      promptTokens,
      replyTokens: this.inner.countTokens(reply),
      firstPieceMs: firstAt - started,
      generationMs: performance.now() - firstAt,
      maxTokens,
    });
  }

  /**
   * While the model loads, a call waits for it instead of failing; while it downloads or when it
   * is unavailable, the call fails at once with a 503 that says why.
   */
  private async untilLoaded(signal?: AbortSignal) {
    signal?.throwIfAborted();
    if (this.inner.status().state === 'loading') {
      await waitFor(this.inner.whenSettled(), this.opts.loadWaitMs, signal);
      if (this.inner.status().state === 'loading') {
        throw new ModelUnavailableError(
          `the model is still loading after ${this.opts.loadWaitMs} ms (AI_LOAD_WAIT_MS)`,
          { publicMessage: 'The model is still loading; try again in a moment.' },
        );
      }
    }
    assertModelUsable(this.inner.status());
  }
}

/** Resolves when the promise settles, the time is up, or rejects when the signal aborts. */
function waitFor(promise: Promise<unknown>, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve();
    };
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
    promise.then(done, done);
  });
}
