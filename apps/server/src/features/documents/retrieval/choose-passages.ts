import type { CountTokens } from '../chunking';
import type { Candidate } from './passage-index';

/**
 * The passages a question's prompt gets: the best ranked ones while their score stays within
 * reach of the best (a passage scoring under RELATIVE_FLOOR of the top one rarely holds the
 * answer and only makes the prompt longer), each counted with the model's tokenizer against the
 * budget, and each followed by its neighbours when offered (those of the first few, cut from the
 * same page or paragraph): an answer at a passage's edge has the words around it there. Taking
 * the neighbours only after every ranked passage left the words around the answer out for 3-6 %
 * of XQuAD's questions in Greek, Turkish and Chinese (bench/ask.bench.ts). Returned in document
 * order, as the answer cites them.
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
    for (const n of neighbours) if (Math.abs(n.index - c.index) === 1 && n.ref === c.ref) take(n);
  }
  return picked.sort((a, b) => a.index - b.index);
}

/** A run of chosen passages that follow each other in one place, as one excerpt. */
export interface Excerpt {
  ref: string;
  text: string;
}

/**
 * Chosen passages (in document order) as the prompt gives them: those that follow each other in
 * one place joined into one excerpt, so words around an answer cut at a passage's edge reach the
 * model as written, not split by a reference line.
 */
export function joinAdjacent(chosen: Candidate[]): Excerpt[] {
  const out: (Excerpt & { last: number; end?: number })[] = [];
  for (const c of chosen) {
    const prev = out.at(-1);
    if (prev && prev.ref === c.ref && prev.last + 1 === c.index) {
      prev.text += between(prev, c) + c.text;
      prev.last = c.index;
      prev.end = c.end;
    } else out.push({ ref: c.ref, text: c.text, last: c.index, end: c.end });
  }
  return out.map(({ ref, text }) => ({ ref, text }));
}

/**
 * What stood between two passages of one place: as chunking saw it when it cut a paragraph
 * (chunking.ts trims it), else from their places in the file's text (a stored file's), else a
 * paragraph break (chunking gives no `joins` to a passage that starts a paragraph).
 */
function between(prev: { end?: number }, next: Candidate): string {
  if (next.joins !== undefined) return next.joins;
  if (prev.end !== undefined && next.start !== undefined) return gapOfWidth(next.start - prev.end);
  return '\n\n';
}

/**
 * The text between two passages from the width of the gap between their places: nothing (a
 * Chinese sentence after another), a space (a sentence after another), or a paragraph break.
 */
export const gapOfWidth = (width: number) => (width <= 0 ? '' : width === 1 ? ' ' : '\n\n');
