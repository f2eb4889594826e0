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
   * For the scheduler (features/ai/scheduler.ts): `interactive` when a person waits on the reply
   * token by token (the default), `batch` for the many calls of a document action.
   */
  priority?: CallPriority;
  /** Whose call it is: batch calls take turns between owners (one user's summary cannot hog the model). */
  owner?: string | number;
  /** The long work this call belongs to, told of its queue position (see progress.ts). */
  work?: WorkHandle;
}

export type CallPriority = 'interactive' | 'batch';

/** What the scheduler tells a long piece of work about its waiting calls. */
export interface WorkHandle {
  /** Calls of others that will run before this work's next waiting call (0 when none waits). */
  setQueuedAhead(calls: number, waitMs: number | null): void;
}

export type ModelState = 'downloading' | 'loading' | 'ready' | 'unavailable';

export interface ModelStatus {
  /** True exactly when `state` is `ready`. */
  available: boolean;
  state: ModelState;
  /** Fraction 0–1 of the download while downloading. */
  progress?: number;
  /** Provider and model, e.g. "llama:qwen2.5-1.5b-instruct-q4_k_m.gguf". */
  name: string;
  /** Why it is unavailable, naming the setting to fix. */
  reason?: string;
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
  close(): Promise<void>;
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

/** 503 with a message that tells the operator what to configure. */
export class ModelUnavailableError extends HttpError {
  constructor(reason: string, headers: Record<string, string> = {}) {
    super(503, `No language model is available: ${reason}`, headers);
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
 * (with the percentage and Retry-After) or when it is unavailable (naming the setting to fix).
 */
export function assertModelUsable(status: ModelStatus): void {
  if (modelUsable(status)) return;
  const reason = status.reason ?? 'the model is not ready';
  if (status.state === 'downloading') {
    throw new ModelUnavailableError(reason, { 'retry-after': String(DOWNLOAD_RETRY_AFTER_S) });
  }
  throw new ModelUnavailableError(reason);
}
