import { MODEL_UNAVAILABLE_MESSAGE } from '@inkwell/contract';
import { HttpError } from '../../lib/http-error';

/**
 * The one interface every AI feature talks to. Providers: `llama` (embedded node-llama-cpp, the
 * default) and `openai` (any OpenAI-compatible Chat Completions server, when AI_BASE_URL is set).
 */
export interface ChatTurn {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface GenerateOptions {
  /** Upper bound on generated tokens (always set: a small model may never stop by itself). */
  maxTokens?: number;
  temperature?: number;
  /** Aborting stops generation and frees the model for the next request. */
  signal?: AbortSignal;
  /**
   * For the scheduler (scheduling/scheduler.ts): `interactive` when a person waits on the reply
   * token by token (chat, a question about a file, typed text to translate), `batch` (the
   * default) for everything else: document actions and page-analysis insights.
   */
  priority?: CallPriority;
  /**
   * Whose call it is: calls take turns between owners (one user's summary or burst of chats
   * cannot hog the model). A user id, or `ip:<address>` for an anonymous page analysis.
   */
  owner?: string | number;
  /**
   * The owner's conversation goes on from this reply (a chat): the embedded engine keeps what it
   * evaluated for their next message and readies its start. A one-off answer (a question about
   * files, typed text to translate) keeps nothing: its next call's prompt is another, and a
   * sequence kept for it would be one fewer for everyone else's conversations.
   */
  conversation?: boolean;
  /** The long work this call belongs to, told of its queue position (see progress.ts). */
  work?: WorkHandle;
  /**
   * The model server's slot the scheduler gave this call (0 for people's calls, the others for
   * document work), sent as llama-server's `id_slot` so each slot's prompt cache keeps one kind
   * of work: otherwise its least-recently-used choice gives a summary the slot that held the
   * chat's system prompt and history, and the next chat evaluates them all again.
   */
  slot?: number;
}

export type CallPriority = 'interactive' | 'batch';

/** What the scheduler tells a long piece of work about its waiting calls. */
export interface WorkHandle {
  /** Calls of others that will run before this work's next waiting call (0 when none waits). */
  setQueuedAhead(calls: number, waitMs: number | null): void;
  /**
   * One of its calls got a slot, estimated to run `estimateMs` (from the model's measured speed),
   * with its prompt's tokens and its reply's bound.
   */
  callStarted?(estimateMs: number, call?: { promptTokens: number; maxTokens: number }): void;
  /**
   * That call ended after running `ranMs` (preempted or not); with its reply's tokens and the
   * time to its first piece when it produced any.
   */
  callEnded?(ranMs: number, outcome?: { replyTokens: number; firstPieceMs: number }): void;
}

/** `unreachable`: the model server (openai provider) does not answer its health check. */
export type ModelState = 'downloading' | 'loading' | 'ready' | 'unavailable' | 'unreachable';

export interface ModelStatus {
  /** True exactly when `state` is `ready`. */
  available: boolean;
  state: ModelState;
  /** Fraction 0–1 of the download while downloading. */
  progress?: number;
  /** Provider and model, e.g. "llama:qwen2.5-1.5b-instruct-q4_k_m.gguf". */
  name: string;
  /**
   * Why it is not ready, naming the setting to fix: for the operator (log, Admin page) only;
   * users read `publicReason(status)` (features/ai/ai-status.ts).
   */
  reason?: string;
  /** The last time the model server answered (openai provider); undefined: never yet. */
  lastOkAt?: Date;
  /** When the next attempt (download, server check) starts while one is waited for. */
  nextRetryAt?: Date;
  /** Calls waiting for a slot of the model (filled in by the scheduler). */
  queued?: number;
}

export interface LanguageModel {
  status(): ModelStatus;
  /** Streams the reply piece by piece; throws ModelUnavailableError when no model can be used. */
  stream(turns: ChatTurn[], opts?: GenerateOptions): AsyncIterable<string>;
  /** Context window in tokens, for budgeting prompts and chunks. */
  contextTokens(): number;
  /** Token count of a text under this model's tokenizer (an estimate where none is available). */
  countTokens(text: string): number;
  /** Resolves once loading has finished, ready or not (at once for providers that do not load). */
  whenSettled(): Promise<ModelStatus>;
  /**
   * Tries again at once what failed (the model download, the check of the model server) instead
   * of waiting for the next attempt; false when nothing was waiting to be retried.
   */
  retryNow?(): boolean;
  /**
   * Runs another call to the model server (an embeddings request) in a slot of the scheduler,
   * as a call of this priority and owner: it takes its turn like every model call. The signal
   * given to `run` aborts when the caller cancels or the slot is taken back (then it runs again).
   */
  inSlot?<T>(call: SlotCall, run: (signal: AbortSignal) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface SlotCall {
  priority: CallPriority;
  owner?: string | number;
  /** What the call is expected to take, for the waits of the calls behind it. */
  estimateMs: number;
  signal?: AbortSignal;
}

/** Tokens of a prompt as the model will see it: the texts plus a few per message for the template. */
export function promptTokens(model: Pick<LanguageModel, 'countTokens'>, turns: ChatTurn[]): number {
  return turns.reduce((n, t) => n + model.countTokens(t.content) + 8, 0);
}

/** The whole reply as one string. */
export async function generate(
  model: LanguageModel,
  turns: ChatTurn[],
  opts?: GenerateOptions,
): Promise<string> {
  let out = '';
  for await (const piece of model.stream(turns, opts)) out += piece;
  return out;
}

/**
 * 503. Users read `publicMessage` (by default MODEL_UNAVAILABLE_MESSAGE); the operator's reason
 * (paths, settings, addresses) is the error's `detail`, which the error handler logs.
 */
export class ModelUnavailableError extends HttpError {
  constructor(
    operatorReason: string,
    opts: { headers?: Record<string, string>; publicMessage?: string } = {},
  ) {
    super(503, opts.publicMessage ?? MODEL_UNAVAILABLE_MESSAGE, opts.headers, operatorReason);
    this.name = 'ModelUnavailableError';
  }
}

/** A model that can take calls now or soon: ready, or loading (calls wait for it). */
export const modelUsable = (status: ModelStatus) =>
  status.state === 'ready' || status.state === 'loading';

/** How long a client is told to wait while the model downloads. */
const DOWNLOAD_RETRY_AFTER_S = 30;

/**
 * Throws the 503 before any work starts when the model cannot take calls: while it downloads
 * (with the percentage and Retry-After), or when it is unavailable or its server unreachable
 * (users read what they can do; the log gets the setting to fix).
 */
export function assertModelUsable(status: ModelStatus): void {
  if (modelUsable(status)) return;
  const reason = status.reason ?? 'the model is not ready';
  if (status.state === 'downloading') {
    throw new ModelUnavailableError(reason, {
      headers: { 'retry-after': String(DOWNLOAD_RETRY_AFTER_S) },
      // The percentage is no secret: it tells the user how long to wait.
      publicMessage: `No language model is available: ${reason}`,
    });
  }
  throw new ModelUnavailableError(`${status.name}: ${reason}`);
}
