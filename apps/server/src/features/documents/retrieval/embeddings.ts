/**
 * Vectors of texts from an OpenAI-compatible `/v1/embeddings` model (AI_EMBEDDINGS_MODEL on the
 * AI_BASE_URL server), for hybrid retrieval (rank-fusion.ts). Texts go in batches.
 */
import type { Config } from '../../../config';
import { estimateTokens, type CallPriority, type LanguageModel } from '../../ai';

export interface Embedder {
  /** Names the vectors: a file's vectors are kept per model. */
  model: string;
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

export const EMBEDDING_BATCH = 64;

export class OpenAIEmbedder implements Embedder {
  constructor(
    private readonly opts: { baseUrl: string; apiKey?: string; model: string; timeoutMs: number },
  ) {}

  get model() {
    return this.opts.model;
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const timeout = AbortSignal.timeout(this.opts.timeoutMs);
    const res = await fetch(`${this.opts.baseUrl.replace(/\/$/, '')}/embeddings`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}),
      },
      body: JSON.stringify({ model: this.opts.model, input: texts }),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    if (!res.ok) throw new Error(`The embeddings model answered ${res.status}`);
    const body = (await res.json()) as { data: { index: number; embedding: number[] }[] };
    const out: number[][] = new Array<number[]>(texts.length);
    for (const d of body.data) out[d.index] = d.embedding;
    if (out.some((v) => !v)) throw new Error('The embeddings model left texts without a vector');
    return out;
  }
}

/** The embeddings model of the configuration: AI_EMBEDDINGS_MODEL on the AI_BASE_URL server. */
export function embedderFromConfig(
  config: Pick<Config, 'AI_BASE_URL' | 'AI_API_KEY' | 'AI_EMBEDDINGS_MODEL' | 'AI_TIMEOUT_MS'>,
): Embedder | undefined {
  if (!config.AI_BASE_URL || !config.AI_EMBEDDINGS_MODEL) return undefined;
  return new OpenAIEmbedder({
    baseUrl: config.AI_BASE_URL,
    apiKey: config.AI_API_KEY,
    model: config.AI_EMBEDDINGS_MODEL,
    timeoutMs: config.AI_TIMEOUT_MS,
  });
}

/**
 * Embedding texts prompt-processes them on the model server as a reply does: a rough figure of
 * its speed, only for the waits the scheduler tells the calls behind it.
 */
const EMBEDDED_TOKENS_PER_MS = 2;

/**
 * The embedder with each request in a slot of the model's scheduler (LanguageModel.inSlot), as
 * a call of this priority and owner: a file's vectors are document work that takes its turn and
 * leaves room for people, a question's vector goes with the person's question.
 */
export function inTurn(
  embedder: Embedder,
  ai: Pick<LanguageModel, 'inSlot'>,
  call: { priority: CallPriority; owner?: string | number },
): Embedder {
  return {
    model: embedder.model,
    embed(texts, signal) {
      if (!ai.inSlot) return embedder.embed(texts, signal);
      const tokens = texts.reduce((n, t) => n + estimateTokens(t), 0);
      return ai.inSlot(
        { ...call, signal, estimateMs: Math.max(50, tokens / EMBEDDED_TOKENS_PER_MS) },
        (s) => embedder.embed(texts, s),
      );
    },
  };
}
