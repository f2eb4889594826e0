import type {
  BatchItem,
  CustomBatchingPrioritizationStrategy,
  EvaluationPriority,
  PrioritizedBatchItem,
} from 'node-llama-cpp';
import type { CallPriority } from '../../language-model';

/**
 * Inside the embedded engine every sequence's pending tokens share one batch per decode. By
 * default node-llama-cpp splits it evenly, so a chat's prompt waited behind a summary's prompt
 * evaluation, and each of its generated tokens was decoded together with hundreds of the
 * summary's. This strategy puts a person's tokens first:
 * - interactive items (a person waits on them) take the batch, shared evenly between them, and
 *   document work waits: a chat's prompt costs what it costs alone;
 * - with no person's tokens queued, batch items (document work) get at most BATCH_TOKENS per
 *   decode, so a chat that arrives mid-decode waits for a short decode, never a long one;
 * - while an interactive call is running, between its tokens (its next token is not queued yet
 *   while the previous one is sampled), batch items get at most BATCH_TOKENS_BESIDE_PEOPLE: the
 *   document work goes on, slowly, and each of the person's tokens waits for a small decode.
 */
export const EVALUATION_PRIORITY: Record<CallPriority, EvaluationPriority> = {
  interactive: 5,
  batch: 1,
};

/** Most tokens of batch work in one decode: bounds what a newly arrived chat waits for. */
export const BATCH_TOKENS = 64;
/** Most tokens of batch work in one decode while a person's call runs. */
export const BATCH_TOKENS_BESIDE_PEOPLE = 16;

export function interactiveFirst(
  interactiveRunning: () => boolean,
): CustomBatchingPrioritizationStrategy {
  return ({ items, size }) => {
    const people = items.filter((i) => i.evaluationPriority >= EVALUATION_PRIORITY.interactive);
    const work = items.filter((i) => i.evaluationPriority < EVALUATION_PRIORITY.interactive);
    if (people.length > 0) return shareEvenly(people, size);
    const budget = Math.min(size, interactiveRunning() ? BATCH_TOKENS_BESIDE_PEOPLE : BATCH_TOKENS);
    return shareEvenly(work, budget);
  };
}

/** Splits `budget` tokens between items as evenly as their lengths allow, in their order. */
export function shareEvenly(items: readonly BatchItem[], budget: number): PrioritizedBatchItem[] {
  const out = items.map((item) => ({ item, processAmount: 0 }));
  let left = budget;
  let open = out.filter((p) => p.item.tokens.length > 0);
  while (left > 0 && open.length > 0) {
    const each = Math.max(1, Math.floor(left / open.length));
    for (const p of open) {
      const take = Math.min(each, p.item.tokens.length - p.processAmount, left);
      p.processAmount += take;
      left -= take;
      if (left === 0) break;
    }
    open = open.filter((p) => p.processAmount < p.item.tokens.length);
  }
  // node-llama-cpp processes at least one token of any item it is given: leave out the others.
  return out.filter((p) => p.processAmount > 0);
}
