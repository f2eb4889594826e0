import { HttpError } from '../../../../lib/http-error';
import {
  ModelUnavailableError,
  type ChatTurn,
  type GenerateOptions,
  type LanguageModel,
  type ModelStatus,
} from '../../language-model';
import { DEFAULT_HEALTH, ServerHealth, type ServerHealthOptions } from './server-health';
import { sseData } from './sse';
import { untilAborted } from '../../../../lib/linked-signal';
import { memoUntilFailure } from '../../../../lib/memo-until-failure';
import { estimateTokens } from '../../../../lib/token-estimate';

/**
 * The `openai` provider: any OpenAI-compatible Chat Completions server (vLLM, Ollama, llama.cpp
 * server, OpenAI). Always streams from the upstream server, so a slow reply never hits a
 * whole-response timeout and an aborted request stops the upstream generation too.
 */
export interface OpenAIModelOptions {
  baseUrl: string;
  apiKey?: string;
  /** When unset, the first model of GET /models is used (what single-model servers expose). */
  model?: string;
  /** Longest silence accepted from the server: before the answer starts and between pieces. */
  timeoutMs: number;
  /** Context window to budget prompts with; servers do not report it in a standard way. */
  contextTokens?: number;
  /**
   * AI_CACHE_PROMPT: ask the server to keep each slot's prompt evaluated (llama.cpp's
   * `cache_prompt`; vLLM and Ollama ignore it and cache prefixes by themselves), so a call the
   * scheduler preempted resumes on its cache when it is sent again; and, with two slots or more,
   * pin each call to the slot the scheduler gave it (llama.cpp's `id_slot`: people's calls in
   * slot 0, document work in the others), so a summary never evicts the chat's cached prompt.
   */
  cachePrompt?: boolean;
  defaultMaxTokens?: number;
  fetch?: typeof fetch;
  /** How often the server is checked (GET /models) while it answers, and the backoff when not. */
  health?: Pick<ServerHealthOptions, 'intervalMs' | 'backoff'>;
  /** Told when the server stops or starts answering (the operator's log). */
  onHealthChange?: ServerHealthOptions['onChange'];
}

export const OPENAI_DEFAULT_CONTEXT = 8192;
const DEFAULT_MAX_TOKENS = 1024;

export class OpenAIModel implements LanguageModel {
  private readonly base: string;
  private closed = false;
  private readonly fetchFn: typeof fetch;
  private readonly health: ServerHealth;

  constructor(private readonly opts: OpenAIModelOptions) {
    this.base = opts.baseUrl.replace(/\/+$/, '');
    this.fetchFn = opts.fetch ?? fetch;
    this.health = new ServerHealth({
      ...(opts.health ?? DEFAULT_HEALTH),
      check: (signal) => this.checkServer(signal),
      onChange: opts.onHealthChange,
    });
  }

  /** Starts checking the server in the background (without it, the state is only learnt from calls). */
  start() {
    this.health.start();
  }

  retryNow(): boolean {
    return this.health.checkNow();
  }

  async whenSettled(): Promise<ModelStatus> {
    return this.status();
  }

  status(): ModelStatus {
    if (this.closed)
      return {
        available: false,
        state: 'unavailable',
        name: this.name(),
        reason: 'the server is shutting down',
      };
    const { lastOkAt } = this.health;
    if (this.health.state === 'down') {
      return {
        available: false,
        state: 'unreachable',
        name: this.name(),
        reason: this.health.reason,
        lastOkAt,
        nextRetryAt: this.health.nextCheckAt ?? undefined,
      };
    }
    return { available: true, state: 'ready', name: this.name(), lastOkAt };
  }

  contextTokens(): number {
    return this.opts.contextTokens ?? OPENAI_DEFAULT_CONTEXT;
  }

  countTokens(text: string): number {
    return estimateTokens(text);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.health.stop();
  }

  async *stream(turns: ChatTurn[], opts: GenerateOptions = {}): AsyncGenerator<string> {
    if (this.closed) throw new ModelUnavailableError('the server is shutting down');
    // Known to be down: answer at once instead of waiting for a connection to fail.
    if (this.health.state === 'down') throw new ModelUnavailableError(this.status().reason ?? '');
    opts.signal?.throwIfAborted();
    const idle = new IdleTimer(this.opts.timeoutMs);
    const signal = opts.signal ? AbortSignal.any([opts.signal, idle.signal]) : idle.signal;
    let connected = false;
    try {
      const model = await this.model(signal);
      const res = await this.fetchFn(`${this.base}/chat/completions`, {
        method: 'POST',
        headers: this.headers(),
        body: JSON.stringify({
          model,
          messages: turns,
          stream: true,
          max_tokens: opts.maxTokens ?? this.opts.defaultMaxTokens ?? DEFAULT_MAX_TOKENS,
          ...(this.opts.cachePrompt ? { cache_prompt: true } : {}),
          ...(this.opts.cachePrompt && opts.slot !== undefined ? { id_slot: opts.slot } : {}),
          ...(opts.temperature !== undefined ? { temperature: opts.temperature } : {}),
        }),
        signal,
      });
      connected = true;
      if (res.status < 500) this.health.reportSuccess();
      if (!res.ok) throw await this.statusError(res);
      if (!res.body) throw upstreamError('the AI server sent an empty answer');
      idle.touch();
      let finished = false;
      for await (const data of sseData(res.body)) {
        idle.touch();
        if (data.trim() === '[DONE]') {
          finished = true;
          break;
        }
        const chunk = parseChunk(data);
        if (chunk.error) throw upstreamError(`the AI server reported an error: ${chunk.error}`);
        if (chunk.content) yield chunk.content;
        if (chunk.finished) finished = true;
      }
      if (!finished)
        throw upstreamError('the AI server closed the connection before finishing the reply');
    } catch (err) {
      throw this.mapError(err, opts.signal, idle, connected);
    } finally {
      idle.clear();
    }
  }

  /** The health check: the model list answers (a server without that endpoint answers 404). */
  private async checkServer(signal: AbortSignal): Promise<void> {
    let res: Response;
    try {
      res = await this.fetchFn(`${this.base}/models`, { headers: this.headers(), signal });
    } catch (err) {
      throw new Error(this.unreachableReason(err));
    }
    await res.body?.cancel();
    if (!res.ok && res.status !== 404) {
      throw new Error(`the AI server at ${this.base} answered HTTP ${res.status} to GET /models`);
    }
  }

  private unreachableReason(err: unknown): string {
    const cause = err instanceof Error ? (err.cause as Error | undefined) : undefined;
    const why = causeCode(err) ?? cause?.message ?? (err instanceof Error ? err.message : 'error');
    return `the AI server at ${this.base} cannot be reached (${why}); check AI_BASE_URL`;
  }

  private name() {
    return `openai:${this.opts.model ?? 'default'}@${this.base}`;
  }

  private headers(): Record<string, string> {
    const h: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'text/event-stream',
    };
    if (this.opts.apiKey) h.authorization = `Bearer ${this.opts.apiKey}`;
    return h;
  }

  /**
   * AI_MODEL, or the server's first model; cached once found. One lookup serves every call
   * waiting for it, so it is not stopped by any one caller's signal (one leaving sent the others'
   * calls to "default"); each caller stops waiting on its own. A lookup that failed or was
   * refused (the server starting) is not kept: the next call asks again.
   */
  private async model(signal: AbortSignal): Promise<string> {
    if (this.opts.model) return this.opts.model;
    try {
      return await untilAborted(this.lookupModel(), signal);
    } catch {
      signal.throwIfAborted();
      return 'default'; // no model list: the server's own default
    }
  }

  private readonly lookupModel = memoUntilFailure(async () => {
    const res = await this.fetchFn(`${this.base}/models`, {
      headers: this.headers(),
      signal: AbortSignal.timeout(this.opts.timeoutMs),
    });
    if (!res.ok) throw new Error(`GET /models answered ${res.status}`);
    const body = (await res.json()) as { data?: { id?: string }[] };
    return body.data?.[0]?.id ?? 'default';
  });

  private async statusError(res: Response): Promise<HttpError> {
    const detail = await res
      .text()
      .then((t) => {
        try {
          const j = JSON.parse(t) as { error?: { message?: string } | string };
          return typeof j.error === 'string' ? j.error : (j.error?.message ?? '');
        } catch {
          return '';
        }
      })
      .catch(() => '');
    const suffix = detail ? ` (${detail.slice(0, 200)})` : '';
    if (res.status === 401 || res.status === 403) {
      return new ModelUnavailableError(
        `the AI server at AI_BASE_URL rejected the credentials; check AI_API_KEY${suffix}`,
      );
    }
    if (res.status === 404) {
      return new ModelUnavailableError(
        `the AI server does not know this model or path; check AI_MODEL and AI_BASE_URL${suffix}`,
      );
    }
    if (res.status === 429) {
      return new HttpError(
        503,
        'The assistant is busy. Please try again shortly.',
        {},
        detail || undefined,
      );
    }
    return upstreamError(`the AI server answered HTTP ${res.status}${suffix}`);
  }

  private mapError(
    err: unknown,
    callerSignal: AbortSignal | undefined,
    idle: IdleTimer,
    connected: boolean,
  ): unknown {
    if (callerSignal?.aborted) return callerSignal.reason ?? err;
    if (err instanceof HttpError) return err;
    if (idle.fired) {
      return new HttpError(
        504,
        'The assistant took too long to answer. Please try again.',
        {},
        `the AI server did not answer within ${this.opts.timeoutMs} ms (AI_TIMEOUT_MS)`,
      );
    }
    if (!connected) {
      // Refused, unknown host, TLS failure...: the request never reached a server.
      const reason = this.unreachableReason(err);
      this.health.reportFailure(reason);
      return new ModelUnavailableError(reason);
    }
    return upstreamError('the AI server closed the connection before finishing the reply');
  }
}

/** 502: the user reads that the answer failed; the operator's log gets what the server did. */
function upstreamError(detail: string) {
  return new HttpError(
    502,
    'The assistant could not finish its answer. Please try again.',
    {},
    detail,
  );
}

interface ParsedChunk {
  content?: string;
  finished?: boolean;
  error?: string;
}

function parseChunk(data: string): ParsedChunk {
  let j: {
    choices?: { delta?: { content?: string | null }; finish_reason?: string | null }[];
    error?: { message?: string } | string;
  };
  try {
    j = JSON.parse(data) as typeof j;
  } catch {
    return {};
  }
  if (j.error)
    return { error: typeof j.error === 'string' ? j.error : (j.error.message ?? 'unknown') };
  const choice = j.choices?.[0];
  return { content: choice?.delta?.content ?? undefined, finished: Boolean(choice?.finish_reason) };
}

function causeCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Aborts after `ms` without activity. `touch()` only records the time (it runs once per streamed
 * piece, so it must be cheap); the timer re-arms itself for the remaining time when it fires.
 */
class IdleTimer {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private last = Date.now();
  fired = false;
  constructor(private readonly ms: number) {
    this.arm(ms);
  }
  get signal() {
    return this.controller.signal;
  }
  touch() {
    this.last = Date.now();
  }
  clear() {
    clearTimeout(this.timer);
  }
  private arm(delay: number) {
    this.timer = setTimeout(() => {
      const idleFor = Date.now() - this.last;
      if (idleFor < this.ms) return this.arm(this.ms - idleFor);
      this.fired = true;
      this.controller.abort(new Error('AI server timeout'));
    }, delay);
    this.timer.unref();
  }
}
