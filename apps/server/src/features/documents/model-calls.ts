import { createHash } from 'node:crypto';
import { HttpError } from '../../lib/http-error';
import { linkedController } from '../../lib/linked-signal';
import {
  assertModelUsable,
  generate,
  promptTokens,
  type CallPriority,
  type ChatTurn,
  type LanguageModel,
  type WorkProgress,
} from '../ai';
import type { Embedder } from './retrieval/embeddings';

/**
 * What the document services need from the AI engine. `contextTokens` overrides the model's
 * window (tests and the bench use a small one to prove chunking); `signal` stops the remaining
 * calls of a long map-reduce (the job cancelled or taken over, the client gone; mapCalls links
 * one per action that a failed call aborts too).
 */
export interface AiDeps {
  ai: LanguageModel;
  contextTokens?: number;
  signal?: AbortSignal;
  /** Whose work it is: the scheduler lets owners take turns. */
  owner?: string | number;
  /**
   * `batch` (the default) for the calls of a document action; `interactive` for a reply a person
   * waits on (the answer of ask-questions, typed-text translation).
   */
  priority?: CallPriority;
  /** Moved forward one part per model call, and told the queue position of the next one. */
  progress?: WorkProgress;
  /**
   * The finished model calls of this job (jobs/job-kinds.ts): a call whose answer is there is not
   * made again, so a job resumed after a crash goes on from its last finished part.
   */
  parts?: {
    get(key: string): Promise<string | undefined>;
    put(key: string, output: string): Promise<void>;
  };
  /** AI_EMBEDDINGS_MODEL: passages are ranked by BM25 and vectors together. */
  embeddings?: Embedder;
  /** ASK_MAX_PASSAGE_TOKENS: the most passage text one question's prompt gets. */
  maxPassageTokens?: number;
  /** Called after every model call, for the bench and tests. */
  onCall?: (call: { promptTokens: number; maxTokens: number }) => void;
}

/**
 * Throws the 503 before any work is done when no model can be used (a model still loading is
 * waited for by the calls themselves).
 */
export function requireModel(ai: LanguageModel): void {
  assertModelUsable(ai.status());
}

export const modelAvailable = (ai: LanguageModel) => ai.status().available;

export function contextOf(deps: AiDeps): number {
  return deps.contextTokens ?? deps.ai.contextTokens();
}

export { promptTokens };

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

/**
 * One model call: never without maxTokens, trimmed answer; done once per job (deps.parts).
 * `onText` sees the answer so far as it arrives (a question's answer streams to the asker).
 */
export async function complete(
  deps: AiDeps,
  turns: ChatTurn[],
  maxTokens: number,
  onText?: (soFar: string) => void,
) {
  const key = deps.parts && callKey(turns, maxTokens);
  const done = key ? await deps.parts!.get(key) : undefined;
  if (done !== undefined) {
    deps.progress?.partDone();
    return done;
  }
  // Stopped while the part was looked up (a sibling failed, the job was cancelled): no call.
  deps.signal?.throwIfAborted();
  const tokens = promptTokens(deps.ai, turns);
  const options = {
    maxTokens,
    temperature: 0.2,
    signal: deps.signal,
    priority: deps.priority ?? 'batch',
    owner: deps.owner,
    work: deps.progress,
  };
  let text = '';
  if (onText) {
    for await (const piece of deps.ai.stream(turns, options)) {
      text += piece;
      onText(text);
    }
  } else {
    text = await generate(deps.ai, turns, options);
  }
  const answer = text.trim();
  if (key) await deps.parts!.put(key, answer);
  deps.progress?.partDone();
  deps.onCall?.({ promptTokens: tokens, maxTokens });
  return answer;
}

/** A model call's identity: the same prompt and bound in a resumed job is the same part. */
function callKey(turns: ChatTurn[], maxTokens: number): string {
  return createHash('sha256')
    .update(JSON.stringify([turns, maxTokens]))
    .digest('base64url');
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

/**
 * The model calls of one action (the parts of a summary or a translation), at most `limit` in
 * flight, results in order. They share one signal, linked to the action's own (cancel, lease
 * lost, shutdown, client gone): the first call that fails aborts it, so its siblings stop at once
 * wherever they are (waiting at the scheduler or for a shared slot, running at the model) and no
 * further call starts. Otherwise a refused part (a context overflow answers 400) would fail the
 * action while the rest of a 10 MB document went on through the model, for nobody.
 */
export async function mapCalls<T, R>(
  deps: AiDeps,
  items: T[],
  limit: number,
  fn: (item: T, deps: AiDeps) => Promise<R>,
): Promise<R[]> {
  const siblings = linkedController(deps.signal);
  const shared: AiDeps = { ...deps, signal: siblings.signal };
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length && !siblings.signal.aborted) {
      const i = next++;
      out[i] = await fn(items[i]!, shared);
    }
  };
  const stopOthers = (err: unknown) => {
    if (!siblings.signal.aborted) siblings.controller.abort(err);
    throw err;
  };
  try {
    const workers = Array.from({ length: Math.min(limit, items.length) }, () =>
      worker().catch(stopOthers),
    );
    await Promise.all(workers);
  } finally {
    siblings.dispose();
  }
  // A cancel between the last call and here: the action stops, whatever it had.
  siblings.signal.throwIfAborted();
  return out;
}

export const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));
