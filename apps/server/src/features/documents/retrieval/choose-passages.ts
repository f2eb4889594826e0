import type { CountTokens } from '../chunking';
import type { Candidate } from './passage-index';

/**
 * The passages a question's prompt gets: the best ranked ones while their score stays within
 * reach of the best (a passage scoring under RELATIVE_FLOOR of the top one rarely holds the
 * answer and only makes the prompt longer), each counted with the model's tokenizer against the
 * budget; then, with what is left, the text around the top passage when it was cut from the same
 * page or paragraph (its neighbours). Returned in document order, as the answer cites them.
 */
export const RELATIVE_FLOOR = 0.3;
const PASSAGE_OVERHEAD = 8;

export function choosePassages(
  ranked: Candidate[],
  neighbours: Candidate[],
  budget: number,
  count: CountTokens,
): Candidate[] {
  const best = ranked[0]?.score ?? 0;
  const picked: Candidate[] = [];
  const seen = new Set<number>();
  let used = 0;
  const take = (c: Candidate) => {
    if (seen.has(c.index)) return;
    const cost = count(c.text) + PASSAGE_OVERHEAD;
    if (used + cost > budget) return;
    picked.push(c);
    seen.add(c.index);
    used += cost;
  };
  for (const c of ranked) {
    if (best > 0 && c.score < best * RELATIVE_FLOOR) break;
    take(c);
  }
  for (const c of neighbours) take(c);
  return picked.sort((a, b) => a.index - b.index);
}
