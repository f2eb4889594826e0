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
}

export interface ModelStatus {
  available: boolean;
  /** Provider and model, e.g. "llama:qwen2.5-1.5b-instruct-q4_k_m.gguf". */
  name: string;
  /** Why it is unavailable, naming the setting to fix. */
  reason?: string;
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
  constructor(reason: string) {
    super(503, `No language model is available: ${reason}`);
    this.name = 'ModelUnavailableError';
  }
}
