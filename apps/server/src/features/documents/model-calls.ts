import { HttpError } from '../../lib/http-error';
import {
  generate,
  ModelUnavailableError,
  type ChatTurn,
  type LanguageModel,
} from '../ai/language-model';

/**
 * What the document services need from the AI engine. `contextTokens` overrides the model's
 * window (tests and the bench use a small one to prove chunking); `signal` stops the remaining
 * calls of a long map-reduce when the client goes away.
 */
export interface AiDeps {
  ai: LanguageModel;
  contextTokens?: number;
  signal?: AbortSignal;
  /** Called after every model call, for the bench and tests. */
  onCall?: (call: { promptTokens: number; maxTokens: number }) => void;
}

/** Throws the 503 before any work is done when no model can be used. */
export function requireModel(ai: LanguageModel): void {
  const status = ai.status();
  if (!status.available) throw new ModelUnavailableError(status.reason ?? 'unknown reason');
}

export const modelAvailable = (ai: LanguageModel) => ai.status().available;

export function contextOf(deps: AiDeps): number {
  return deps.contextTokens ?? deps.ai.contextTokens();
}

/** Tokens of a prompt as the model will see it: the texts plus a few per message for the template. */
export function promptTokens(ai: LanguageModel, turns: ChatTurn[]): number {
  return turns.reduce((n, t) => n + ai.countTokens(t.content) + 8, 0);
}

/**
 * Tokens left for document text once the fixed prompt and the reply are accounted for, with a
 * 5% margin because token counts of concatenated texts are not exactly additive.
 */
export function inputBudget(
  deps: AiDeps,
  fixed: { promptTokens: number; outputTokens: number },
): number {
  const free = contextOf(deps) - fixed.promptTokens - fixed.outputTokens;
  return Math.floor(free * 0.95);
}

/** One model call: never without maxTokens, trimmed answer. */
export async function complete(deps: AiDeps, turns: ChatTurn[], maxTokens: number) {
  const tokens = promptTokens(deps.ai, turns);
  const text = await generate(deps.ai, turns, {
    maxTokens,
    temperature: 0.2,
    signal: deps.signal,
  });
  deps.onCall?.({ promptTokens: tokens, maxTokens });
  return text.trim();
}

/**
 * For actions that work without a model (proofread, sentiment): the model's text, or null when
 * there is no model or it failed (503, 502, 504), so the caller answers with its own summary.
 */
export async function completeIfAvailable(
  deps: AiDeps,
  turns: ChatTurn[],
  maxTokens: number,
): Promise<string | null> {
  if (!modelAvailable(deps.ai)) return null;
  try {
    return await complete(deps, turns, maxTokens);
  } catch (err) {
    if (deps.signal?.aborted) throw err;
    if (err instanceof HttpError && err.statusCode >= 500) return null;
    throw err;
  }
}

/** Maps with at most `limit` calls in flight, keeping the order of the results. */
export async function mapLimit<T, R>(
  items: T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

export const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));
