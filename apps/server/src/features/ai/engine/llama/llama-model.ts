import type { FastifyBaseLogger } from 'fastify';
import type { LlamaContextSequence } from 'node-llama-cpp';
import {
  ModelUnavailableError,
  type ChatTurn,
  type GenerateOptions,
  type LanguageModel,
  type ModelStatus,
} from '../../language-model';
import { Backoff } from '../backoff';
import {
  DOWNLOAD_BACKOFF,
  downloadWithRetry,
  planModelFile,
  type ModelFileSettings,
} from './model-file';
import { EVALUATION_PRIORITY } from './batch-priority';
import { decideSequences } from './sequence-sizing';
import { adoptSystemPrefix, systemMessage } from './system-prefix';
import { canShiftTokens, cutToPrompt } from './prompt-reuse';
import { estimateTokens } from '../../../../lib/token-estimate';
import { checkLoadable, openEngine } from './llama-load';
import { statusOf, type EngineState, type ReadyEngine } from './llama-state';
import { samplingOptions, toHistory, type LlamaTuning } from './llama-tuning';
import { generationError } from './generation-error';
import { sequenceScore } from './sequence-choice';
import { FollowUpPrep, type PrepEngine } from './follow-up-prep';
import { SequenceWarmer } from './sequence-warmer';

export { defaultThreads, tuningFromConfig, type LlamaTuning } from './llama-tuning';

/**
 * The `llama` provider: a GGUF model run in-process by node-llama-cpp. One model and one context
 * are shared; the context has several sequences (parallel generations, LLAMA_SEQUENCES, by default
 * as many as memory allows) and further requests queue. A person comes first: one sequence is kept
 * for interactive calls (Pool), and inside each decode their tokens go before document work
 * (batch-priority.ts). Loading happens in the background (llama-load.ts): until ready, status()
 * says why the model is unavailable.
 */
export class LlamaModelProvider implements LanguageModel {
  private state: EngineState = { kind: 'starting' };
  private readonly abortLoad = new AbortController();
  private settled: Promise<void> = Promise.resolve();
  private name = 'llama';
  /** Interactive calls holding a sequence: batch work yields to them inside each decode. */
  private interactiveRunning = 0;
  /** Calls generating now: while any is, the context's lock is held by its decode loop. */
  private generating = 0;
  /** The system message of the latest interactive call: quiet sequences are given its tokens. */
  private peopleSystem: string | undefined;
  private readonly warmer = new SequenceWarmer();
  /** Tokens moved by gap drops (node-llama-cpp's meter counts them as evaluated). */
  private shiftedTokens = 0;
  private sequences!: number;
  private readonly sequencesDecided: Promise<number>;
  private decideSequences!: (n: number) => void;
  /** Between attempts at a failed download (retryNow() cuts the wait short). */
  private readonly downloadBackoff: Backoff;
  /** Resolves whenSettled() at the first failed download, while the attempts go on. */
  private firstDownloadFailure!: () => void;
  /** Readies a person's kept conversation for their follow-up while nothing else runs. */
  readonly followUps = new FollowUpPrep(
    () => this.generating > 0 || (this.state.kind === 'ready' && this.state.pool.queued > 0),
  );

  constructor(
    private readonly config: ModelFileSettings,
    private readonly log: FastifyBaseLogger,
    private readonly tuning: LlamaTuning,
    downloadBackoff = DOWNLOAD_BACKOFF,
  ) {
    this.sequencesDecided = new Promise((resolve) => (this.decideSequences = resolve));
    this.downloadBackoff = new Backoff(downloadBackoff);
  }

  retryNow(): boolean {
    return this.downloadBackoff.now();
  }

  /**
   * How many calls the model runs at once (the scheduler's capacity): decided at the start of
   * loading, from the model file and the memory available (LLAMA_SEQUENCES=auto), or as set.
   */
  plannedSequences(): Promise<number> {
    return this.sequencesDecided;
  }

  /** Begins resolving, downloading and loading the model; never throws (failures land in status()). */
  start() {
    const failedOnce = new Promise<void>((r) => (this.firstDownloadFailure = r));
    const loaded = this.load().catch((err: unknown) => {
      if (this.state.kind === 'closed') return;
      const reason = err instanceof Error ? err.message : String(err);
      this.state = { kind: 'failed', reason };
      this.log.error(`AI: the embedded model is unavailable: ${reason}`);
    });
    this.settled = Promise.race([loaded, failedOnce]);
  }

  /** Resolves once loading has succeeded or failed (tests, benchmarks). */
  async whenSettled(): Promise<ModelStatus> {
    await this.settled;
    return this.status();
  }

  status(): ModelStatus {
    return statusOf(this.state, this.name, this.downloadBackoff.nextAttemptAt);
  }

  contextTokens(): number {
    return this.state.kind === 'ready' ? this.state.context.contextSize : this.tuning.contextSize;
  }

  /** Prompt tokens the model has evaluated (what a kept prefix or a resumed call saves shows here). */
  inputTokensEvaluated(): number {
    const s = this.state;
    return s.kind === 'ready'
      ? s.sequences.reduce((n, q) => n + q.tokenMeter.usedInputTokens, 0) - this.shiftedTokens
      : 0;
  }

  /** Sequences that hold this system message's evaluated tokens (tests, the start-up log). */
  sequencesHolding(system: string): number {
    const s = this.state;
    return s.kind === 'ready' ? s.sequences.filter((q) => s.prefix.holds(q, system)).length : 0;
  }

  countTokens(text: string): number {
    return this.state.kind === 'ready'
      ? this.state.model.tokenize(text).length
      : estimateTokens(text);
  }

  async *stream(turns: ChatTurn[], opts: GenerateOptions = {}): AsyncGenerator<string> {
    const ready = this.state;
    if (ready.kind !== 'ready')
      throw new ModelUnavailableError(this.status().reason ?? 'not ready');
    const stop = new AbortController();
    const signal = opts.signal ? AbortSignal.any([opts.signal, stop.signal]) : stop.signal;
    const system = systemMessage(turns);
    const priority = opts.priority ?? 'batch';
    const owner = opts.owner === undefined ? undefined : String(opts.owner);
    // A person's chat: what the sequence evaluated is kept for their next message.
    const conversation = priority === 'interactive' && opts.conversation === true;
    // A person's follow-up takes back their conversation's sequence, ready or not.
    if (conversation) await this.followUps.settle(owner);
    // Best: this owner's interrupted call (its prompt is evaluated there: a retry costs only the
    // new tokens); then a sequence that holds this system message; last, another owner's kept work.
    const sequence = await ready.pool.acquire({
      signal,
      priority,
      score: (s) => sequenceScore(ready, s, owner, system, this.peopleSystem),
    });
    if (priority === 'interactive') {
      this.interactiveRunning++;
      if (system !== undefined && conversation) this.peopleSystem = system;
    }
    let completed = false;
    let reused = 0;
    try {
      const resuming = ready.kept.resumes(sequence, owner, system);
      // Another owner's kept tokens never serve this call: back to their system message.
      await ready.kept.claim(sequence, owner);
      // A sequence without this system message copies it from one that has it. Not while anything
      // generates: the copy waits for node-llama-cpp's context lock, which its decode loop holds
      // as long as any tokens are queued (until the other replies end); the call evaluates the
      // system message itself instead. Quiet sequences are given it ahead (SequenceWarmer).
      if (!resuming && this.generating === 0)
        await adoptSystemPrefix(ready.prefix, sequence, system, ready.sequences);
      // Whatever else the sequence holds is cut between two decodes, never under the lock. Old
      // exchanges the history window dropped are erased from the middle only while nothing
      // generates (that erase takes the lock).
      reused = await cutToPrompt(
        ready.model,
        ready.chatWrapper,
        sequence,
        turns,
        (q, keep) => ready.cuts.cut(q, keep),
        this.generating === 0 && canShiftTokens(ready.model, sequence)
          ? (q, start, end) => this.dropGap(q, start, end)
          : undefined,
      );
    } catch (err) {
      this.endCall(ready, sequence, priority);
      throw err;
    }
    const chat = new ready.Chat({
      contextSequence: sequence,
      chatWrapper: ready.chatWrapper,
      autoDisposeSequence: false,
    });
    const pending: string[] = [];
    let reply = '';
    this.generating++;
    let wake: (() => void) | undefined;
    let done = false;
    let failure: unknown;
    // What the prompt cost: the tokens evaluated before the first reply token (debug log).
    const started = performance.now();
    const metered = sequence.tokenMeter.usedInputTokens;
    let firstLogged = false;
    const generation = chat
      .generateResponse(toHistory(turns), {
        ...samplingOptions(opts, sequence.contextSize),
        evaluationPriority: EVALUATION_PRIORITY[priority],
        signal,
        onTextChunk: (text) => {
          if (!firstLogged) {
            firstLogged = true;
            this.log.debug(
              `AI: ${priority} call evaluated ${sequence.tokenMeter.usedInputTokens - metered} ` +
                `prompt tokens (${reused} reused) before its first token, ` +
                `${Math.round(performance.now() - started)} ms`,
            );
          }
          pending.push(text);
          wake?.();
        },
      })
      .then(
        () => {
          completed = true;
        },
        (err: unknown) => {
          failure = err;
        },
      )
      .finally(() => {
        done = true;
        wake?.();
      });
    try {
      for (;;) {
        if (pending.length > 0) {
          const piece = pending.splice(0).join('');
          reply += piece;
          yield piece;
          continue;
        }
        if (done) break;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
      if (failure !== undefined) throw generationError(failure, this.log, opts.signal);
    } finally {
      // Reached on success, error, abort and on a consumer that stopped early: free the sequence,
      // which keeps only its system message (SystemPrefix), or, for a known owner, all it
      // evaluated (KeptWork): a person's conversation, for their follow-up, and an interrupted
      // call (preempted, its job stopped, an answer stopped), for its retry.
      stop.abort();
      await generation;
      this.generating--;
      chat.dispose({ disposeSequence: false });
      const keep = owner !== undefined && (conversation || !completed);
      if (keep) ready.kept.keep(sequence, owner, system);
      // The cut waits for node-llama-cpp's context lock (held while other sequences' tokens are
      // queued): the call ends now, and the sequence returns to the pool once it is cut.
      const cut = keep
        ? conversation && owner !== undefined
          ? this.followUps.prepare(this.prepEngine(ready), sequence, owner, turns, reply)
          : Promise.resolve()
        : ready.prefix
            .keepOnly(sequence, system)
            .catch(() => sequence.clearHistory())
            .catch(() => {});
      this.endCall(ready, sequence, priority, cut);
      if (this.generating === 0) {
        ready.cuts.idle();
        void cut.then(() => this.whenQuiet(ready));
      }
    }
  }

  /** Erases [start, end) of a sequence, shifting the rest into place (not an evaluation). */
  private async dropGap(sequence: LlamaContextSequence, start: number, end: number) {
    const before = sequence.tokenMeter.usedInputTokens;
    await sequence.eraseContextTokenRanges([{ start, end }]);
    // node-llama-cpp counts the shifted tokens as input; they were not evaluated again.
    this.shiftedTokens += sequence.tokenMeter.usedInputTokens - before;
  }

  /** Upkeep once nothing generates: paused follow-up preparations, then empty sequences. */
  private whenQuiet(ready: ReadyEngine) {
    const quiet = () => this.generating === 0 && this.state === ready;
    this.followUps.resume(this.prepEngine(ready), (q) => ready.pool.release(q));
    void this.warmer.warm(ready, this.peopleSystem, quiet);
  }

  private prepEngine(ready: ReadyEngine): PrepEngine {
    return {
      model: ready.model,
      chatWrapper: ready.chatWrapper,
      cut: (q, n) => ready.cuts.cut(q, n),
      takeBack: (q, owner, system) =>
        ready.kept.resumes(q, owner, system) && ready.pool.takeFree((s) => s === q) === q,
    };
  }

  private endCall(
    ready: ReadyEngine,
    sequence: LlamaContextSequence,
    priority: 'interactive' | 'batch',
    cut: Promise<void> = Promise.resolve(),
  ) {
    if (priority === 'interactive') this.interactiveRunning--;
    void cut.then(() => {
      if (this.state.kind === 'ready') ready.pool.release(sequence);
    });
  }

  async close(): Promise<void> {
    const s = this.state;
    this.state = { kind: 'closed' };
    this.abortLoad.abort(new Error('closing'));
    await this.settled;
    if (s.kind === 'ready') {
      s.pool.rejectAll(new ModelUnavailableError('the server is shutting down'));
      await s.llama.dispose().catch(() => {});
    }
  }

  private async load() {
    const plan = planModelFile(this.config);
    await this.planSequences(plan.kind === 'missing' ? undefined : plan.file);
    if (plan.kind === 'missing') throw new Error(plan.reason);
    let file = plan.file;
    this.name = `llama:${file.split(/[\\/]/).pop()}`;
    if (plan.kind === 'download') {
      this.log.info(`AI: downloading ${plan.uri} to ${plan.file} (once; resumes if interrupted)`);
      let logged = 0;
      file = await downloadWithRetry(
        plan,
        (fraction) => {
          if (this.state.kind === 'downloading') this.state.fraction = fraction;
          // Progress in the log too, for terminals without a progress bar (containers).
          if (fraction - logged >= 0.1) {
            logged = fraction;
            this.log.info(`AI: model download ${Math.floor(fraction * 100)}%`);
          }
        },
        {
          backoff: this.downloadBackoff,
          onAttempt: () => {
            this.assertOpen();
            this.state = { kind: 'downloading', fraction: 0 };
          },
          onFailure: (reason) => {
            this.assertOpen();
            this.state = { kind: 'failed', reason };
            this.log.error(`AI: the embedded model is unavailable: ${reason}`);
            this.firstDownloadFailure();
          },
        },
        this.abortLoad.signal,
      );
    }
    this.assertOpen();
    this.state = { kind: 'loading' };
    const started = Date.now();
    await checkLoadable(file, this.tuning, this.config.dataDir);
    this.assertOpen();
    const ready = await openEngine(file, this.tuning, this.sequences, this.log, {
      generating: () => this.generating > 0,
      interactiveRunning: () => this.interactiveRunning > 0,
    });
    if (this.state.kind === 'closed') {
      await ready.llama.dispose().catch(() => {});
      throw new Error('closed');
    }
    this.state = ready;
    this.log.info(
      `AI: ${this.name} ready in ${Date.now() - started} ms (context ${ready.context.contextSize} tokens x ${this.sequences} sequences, ${this.tuning.threads} threads, gpu ${String(ready.llama.gpu)})`,
    );
  }

  /** Decides the sequences once, before the scheduler is made (never fails: a fallback is logged). */
  private async planSequences(file: string | undefined) {
    const plan = await decideSequences(this.tuning.sequences, file, this.tuning.contextSize);
    this.sequences = plan.sequences;
    this.log.info(`AI: ${plan.sequences} sequences (${plan.reason})`);
    this.decideSequences(plan.sequences);
  }

  private assertOpen() {
    if (this.state.kind === 'closed') throw new Error('closed');
  }
}
