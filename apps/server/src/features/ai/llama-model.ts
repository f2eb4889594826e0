import { availableParallelism } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type {
  ChatHistoryItem,
  ChatWrapper,
  Llama,
  LlamaChat,
  LlamaContext,
  LlamaContextSequence,
  LlamaModel,
} from 'node-llama-cpp';
import { HttpError } from '../../lib/http-error';
import { checkGgufFile } from './gguf-check';
import {
  ModelUnavailableError,
  type ChatTurn,
  type GenerateOptions,
  type LanguageModel,
  type ModelStatus,
} from './language-model';
import { probeModel } from './llama-probe';
import type { Config } from '../../config';
import { Backoff } from './backoff';
import {
  DOWNLOAD_BACKOFF,
  downloadWithRetry,
  planModelFile,
  type ModelFileSettings,
} from './model-file';
import { EVALUATION_PRIORITY, interactiveFirst } from './batch-priority';
import { SequenceCuts } from './sequence-cuts';
import { Pool } from './sequence-pool';
import { decideSequences, SEQUENCES_BEFORE_DOWNLOAD } from './sequence-sizing';
import { adoptSystemPrefix, KeptWork, SystemPrefix } from './system-prefix';
import { estimateTokens } from './token-estimate';

/**
 * The `llama` provider: a GGUF model run in-process by node-llama-cpp. One model and one context
 * are shared; the context has several sequences (parallel generations, LLAMA_SEQUENCES, by default
 * as many as memory allows) and further requests queue. A person comes first: one sequence is kept
 * for interactive calls (Pool), and inside each decode their tokens go before document work
 * (batch-priority.ts). Loading happens in the background: until ready, status() says why the model
 * is unavailable.
 */
type State =
  | { kind: 'starting' | 'loading' | 'closed' }
  | { kind: 'downloading'; fraction: number }
  | { kind: 'failed'; reason: string }
  | {
      kind: 'ready';
      llama: Llama;
      model: LlamaModel;
      context: LlamaContext;
      pool: Pool<LlamaContextSequence>;
      sequences: LlamaContextSequence[];
      /**
       * Resolved once. LlamaChat's default ("auto") resolves it on every construction by rendering
       * the model's Jinja template against each built-in wrapper: 0.2-0.9 s per request on 2 cores.
       */
      chatWrapper: ChatWrapper;
      /** Keeps each sequence's system-message tokens evaluated between requests. */
      prefix: SystemPrefix;
      /** Sequences that keep an interrupted batch call's evaluated prompt, for its retry. */
      kept: KeptWork<LlamaContextSequence>;
      /** Cuts a used sequence back between two decodes instead of after every reply. */
      cuts: SequenceCuts;
      /** The class, from the lazily imported module. */
      Chat: typeof LlamaChat;
    };

export interface LlamaTuning {
  /** false (CPU, the default: a GPU build on a machine without one must not be tried), or a GPU type. */
  gpu: false | 'auto' | 'cuda' | 'vulkan' | 'metal';
  /** Parallel generations (requests beyond them queue), or `auto`: sized to the memory left. */
  sequences: number | 'auto';
  /** Tokens per sequence, at most what the model was trained on. */
  contextSize: number;
  threads: number;
}

/** Tuning from the configuration (LLAMA_GPU, LLAMA_SEQUENCES, LLAMA_CONTEXT, LLAMA_THREADS). */
export function tuningFromConfig(
  config: Pick<Config, 'LLAMA_GPU' | 'LLAMA_SEQUENCES' | 'LLAMA_CONTEXT' | 'LLAMA_THREADS'>,
): LlamaTuning {
  return {
    gpu: config.LLAMA_GPU === 'off' ? false : config.LLAMA_GPU,
    sequences: config.LLAMA_SEQUENCES,
    contextSize: config.LLAMA_CONTEXT,
    threads: config.LLAMA_THREADS ?? defaultThreads(availableParallelism()),
  };
}

/**
 * One core is left to the event loop (HTTP, the token stream) and the database. llama.cpp's
 * threads wait for each other by spinning, so when one of them has to share its core, the others
 * stall for whole scheduler slices: on 2 busy cores, a 170 MB model generated ~2 tokens/s with 2
 * threads and ~100 with 1. (node-llama-cpp's own default, at least 4, is worse still.)
 */
export function defaultThreads(cores: number): number {
  return Math.max(1, cores - 1);
}

/** getLlama() options of a tuning; the benchmark's direct run uses these too. */
export function llamaOptions(tuning: LlamaTuning) {
  return { gpu: tuning.gpu, build: 'never', maxThreads: tuning.threads } as const;
}

/** createContext() options of a tuning for a model trained on `trainContextSize` tokens. */
export function contextOptions(
  tuning: LlamaTuning,
  trainContextSize: number,
  sequences = typeof tuning.sequences === 'number' ? tuning.sequences : SEQUENCES_BEFORE_DOWNLOAD,
) {
  return {
    sequences,
    contextSize: Math.min(tuning.contextSize, trainContextSize),
    threads: tuning.threads,
  };
}

const DEFAULT_MAX_TOKENS = 512;

export class LlamaModelProvider implements LanguageModel {
  private state: State = { kind: 'starting' };
  private readonly abortLoad = new AbortController();
  private settled: Promise<void> = Promise.resolve();
  private name = 'llama';
  /** Interactive calls holding a sequence: batch work yields to them inside each decode. */
  private interactiveRunning = 0;
  /** Calls generating now: while any is, the context's lock is held by its decode loop. */
  private generating = 0;
  /** The system message of the latest interactive call: quiet sequences are given its tokens. */
  private peopleSystem: string | undefined;
  private warming = false;
  private sequences!: number;
  private readonly sequencesDecided: Promise<number>;
  private decideSequences!: (n: number) => void;
  /** Between attempts at a failed download (retryNow() cuts the wait short). */
  private readonly downloadBackoff: Backoff;
  /** Resolves whenSettled() at the first failed download, while the attempts go on. */
  private firstDownloadFailure!: () => void;

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
    const s = this.state;
    const name = this.name;
    switch (s.kind) {
      case 'ready':
        return { available: true, state: 'ready', name };
      case 'failed':
        return {
          available: false,
          state: 'unavailable',
          name,
          reason: s.reason,
          nextRetryAt: this.downloadBackoff.nextAttemptAt ?? undefined,
        };
      case 'downloading':
        return {
          available: false,
          state: 'downloading',
          progress: s.fraction,
          name,
          reason: `the model is downloading (${Math.floor(s.fraction * 100)}%); try again when it is ready`,
        };
      case 'closed':
        return {
          available: false,
          state: 'unavailable',
          name,
          reason: 'the server is shutting down',
        };
      default:
        return {
          available: false,
          state: 'loading',
          name,
          reason: 'the model is loading; try again in a moment',
        };
    }
  }

  contextTokens(): number {
    return this.state.kind === 'ready' ? this.state.context.contextSize : this.tuning.contextSize;
  }

  /** Prompt tokens the model has evaluated (what a kept prefix or a resumed call saves shows here). */
  inputTokensEvaluated(): number {
    const s = this.state;
    return s.kind === 'ready'
      ? s.sequences.reduce((n, q) => n + q.tokenMeter.usedInputTokens, 0)
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
    const system = turns[0]?.role === 'system' ? turns[0].content : undefined;
    const priority = opts.priority ?? 'batch';
    const owner = opts.owner === undefined ? undefined : String(opts.owner);
    // Best: this owner's interrupted call (its prompt is evaluated there: a retry costs only the
    // new tokens); then a sequence that holds this system message; last, another owner's kept work.
    const sequence = await ready.pool.acquire({
      signal,
      priority,
      score: (s) => sequenceScore(ready, s, owner, system, this.peopleSystem),
    });
    if (priority === 'interactive') {
      this.interactiveRunning++;
      if (system !== undefined) this.peopleSystem = system;
    }
    let completed = false;
    try {
      const resuming = ready.kept.resumes(sequence, owner);
      // Another owner's kept tokens never serve this call: back to their system message.
      await ready.kept.claim(sequence, owner);
      // A sequence without this system message copies it from one that has it. Not while anything
      // generates: the copy waits for node-llama-cpp's context lock, which its decode loop holds
      // as long as any tokens are queued (until the other replies end); the call evaluates the
      // system message itself instead. Quiet sequences are given it ahead (warm()).
      if (!resuming && this.generating === 0)
        await adoptSystemPrefix(ready.prefix, sequence, system, ready.sequences);
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
    this.generating++;
    let wake: (() => void) | undefined;
    let done = false;
    let failure: unknown;
    const generation = chat
      .generateResponse(toHistory(turns), {
        ...samplingOptions(opts, sequence.contextSize),
        evaluationPriority: EVALUATION_PRIORITY[priority],
        signal,
        onTextChunk: (text) => {
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
          yield pending.splice(0).join('');
          continue;
        }
        if (done) break;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
      if (failure !== undefined) throw this.mapError(failure, opts.signal);
    } finally {
      // Reached on success, error, abort and on a consumer that stopped early: free the sequence,
      // which keeps only its system message (SystemPrefix), or, for an interrupted batch call of a
      // known owner (preempted, or its job stopped), all it evaluated, for its retry (KeptWork).
      stop.abort();
      await generation;
      this.generating--;
      chat.dispose({ disposeSequence: false });
      const keep = !completed && priority === 'batch' && owner !== undefined;
      if (keep) ready.kept.keep(sequence, owner, system);
      // The cut waits for node-llama-cpp's context lock (held while other sequences' tokens are
      // queued): the call ends now, and the sequence returns to the pool once it is cut.
      const cut = keep
        ? Promise.resolve()
        : ready.prefix
            .keepOnly(sequence, system)
            .catch(() => sequence.clearHistory())
            .catch(() => {});
      this.endCall(ready, sequence, priority, cut);
      if (this.generating === 0) {
        ready.cuts.idle();
        void cut.then(() => this.warm(ready));
      }
    }
  }

  /**
   * While nothing generates, empty free sequences are given the people's system message, copied
   * from one that holds it, so a burst of chats finds them ready (a copy made during a reply would
   * wait for it).
   */
  private async warm(ready: Extract<State, { kind: 'ready' }>) {
    const system = this.peopleSystem;
    if (this.warming || system === undefined) return;
    this.warming = true;
    try {
      while (this.generating === 0 && this.state === ready) {
        const sequence = ready.pool.takeFree((s) => s.nextTokenIndex === 0 && !ready.kept.has(s));
        if (!sequence) break;
        const copied = await adoptSystemPrefix(ready.prefix, sequence, system, ready.sequences)
          .catch(() => false)
          .finally(() => ready.pool.release(sequence));
        if (!copied) break;
      }
    } finally {
      this.warming = false;
    }
  }

  private endCall(
    ready: Extract<State, { kind: 'ready' }>,
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
    try {
      await checkGgufFile(file);
    } catch (err) {
      throw new Error(
        `the model file ${file} is not a valid GGUF model: ${(err as Error).message}; replace it or fix MODEL_PATH`,
      );
    }
    const probe = await probeModel(file, this.tuning.gpu, this.config.dataDir);
    if (!probe.ok)
      throw new Error(
        `the model file ${file} cannot be loaded (${probe.error}); replace it or fix MODEL_PATH`,
      );
    this.assertOpen();

    const { getLlama, LlamaChat, LlamaLogLevel, resolveChatWrapper } =
      await import('node-llama-cpp');
    const llama = await getLlama({
      ...llamaOptions(this.tuning),
      logLevel: LlamaLogLevel.warn,
      logger: (level, message) => this.log.debug({ level }, `llama.cpp: ${message.trim()}`),
    });
    try {
      const model = await llama.loadModel({ modelPath: file });
      const cuts = new SequenceCuts(() => this.generating > 0);
      const peopleFirst = interactiveFirst(() => this.interactiveRunning > 0);
      const context = await model.createContext({
        ...contextOptions(this.tuning, model.trainContextSize, this.sequences),
        batching: {
          // Called under the context lock before each decode: the moment cuts can run.
          itemPrioritizationStrategy: (batch) => {
            cuts.runPending();
            return peopleFirst(batch);
          },
        },
      });
      this.assertOpen();
      const sequences = Array.from({ length: this.sequences }, () => context.getSequence());
      const chatWrapper = resolveChatWrapper(model);
      const prefix = new SystemPrefix(model, chatWrapper, (s, keep) => cuts.cut(s, keep));
      this.state = {
        kind: 'ready',
        llama,
        model,
        context,
        pool: new Pool(sequences),
        sequences,
        chatWrapper,
        prefix,
        kept: new KeptWork(prefix),
        cuts,
        Chat: LlamaChat,
      };
      this.log.info(
        `AI: ${this.name} ready in ${Date.now() - started} ms (context ${context.contextSize} tokens x ${this.sequences} sequences, ${this.tuning.threads} threads, gpu ${String(llama.gpu)})`,
      );
    } catch (err) {
      await llama.dispose().catch(() => {});
      throw err;
    }
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

  private mapError(err: unknown, callerSignal?: AbortSignal): unknown {
    if (callerSignal?.aborted) return callerSignal.reason ?? err;
    if (err instanceof HttpError) return err;
    if (err instanceof Error && /too long prompt|context size/i.test(err.message)) {
      return new HttpError(
        400,
        "The message is too long for the model's context. Start a new topic or shorten it.",
      );
    }
    this.log.error({ err }, 'AI: generation failed');
    return new HttpError(500, 'The language model failed to generate a reply.');
  }
}

/**
 * Which free sequence a call would like: its owner's interrupted work (resumed), then one that
 * holds just its system message, then an empty one (both need no cut), then any other, then one
 * holding the people's (chat) system message — kept for chats, which then skip evaluating it —
 * and last another owner's kept work.
 */
function sequenceScore(
  ready: Extract<State, { kind: 'ready' }>,
  s: LlamaContextSequence,
  owner: string | undefined,
  system: string | undefined,
  peopleSystem: string | undefined,
): number {
  if (ready.kept.resumes(s, owner)) return 5;
  if (ready.kept.has(s)) return 0;
  if (ready.prefix.holds(s, system)) return 4;
  if (s.nextTokenIndex === 0) return 3;
  return ready.prefix.holds(s, peopleSystem) ? 1 : 2;
}

/** Length bound and sampling of a generation; the benchmark's direct run uses these too. */
export function samplingOptions(opts: GenerateOptions, sequenceContextSize: number) {
  return {
    // Always bounded: a small (or random) model may never emit its end token.
    maxTokens: Math.min(opts.maxTokens ?? DEFAULT_MAX_TOKENS, Math.floor(sequenceContextSize / 2)),
    temperature: opts.temperature ?? 0.7,
  };
}

/** The turns in node-llama-cpp's shape, ending with the empty model turn to be generated. */
export function toHistory(turns: ChatTurn[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = turns.map((t) =>
    t.role === 'assistant'
      ? { type: 'model', response: [t.content] }
      : { type: t.role === 'system' ? 'system' : 'user', text: t.content },
  );
  history.push({ type: 'model', response: [] });
  return history;
}
