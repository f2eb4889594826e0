import { documentPieces, type CountTokens, type Piece } from '../chunking';
import type { TextUnit } from '../../files';
import { documentSentences, type DocumentSentences, type Sentence } from './sections';
import { SentenceCosts } from './sentence-costs';
import { TermIndex } from './terms';
import { rankOrder, textRankTerms } from './textrank';

/**
 * The extractive step of a bounded summary: when a document is longer than the budget, keep the
 * most central sentences (TextRank) of every part of it, in their original order, so the model
 * reads at most `budget` tokens and still hears from every page, slide, sheet and heading.
 *
 * Every section gets its title and its best sentence first; long sections are cut into segments
 * that each get their best sentence too, so a long run without headings is covered end to end.
 * The rest of the budget is shared out in proportion to each segment's length, best sentences
 * first; what rounding leaves is given to the best remaining sentences of the whole document.
 */
export interface Selection {
  /** What the model reads, as the chunker's pieces (same labels as the full document). */
  pieces: Piece[];
  /** False when the document fits the budget and is read in full. */
  reduced: boolean;
  documentTokens: number;
  selectedTokens: number;
  /** Sections of the document (pages, slides, sheets, headed parts) and how many reach the model. */
  sections: number;
  sectionsKept: number;
}

/** Tokens of the budget each segment is meant to get (so segments ≈ budget / this). */
const TOKENS_PER_SEGMENT = 200;
const MIN_SEGMENT_TOKENS = 800;

export function selectSentences(units: TextUnit[], budget: number, count: CountTokens): Selection {
  const doc = documentSentences(units, count);
  const { sentences, sections, documentTokens } = doc;
  if (documentTokens <= budget) {
    const whole = {
      documentTokens,
      selectedTokens: documentTokens,
      sections,
      sectionsKept: sections,
    };
    return { pieces: documentPieces(units), reduced: false, ...whole };
  }
  const segments = segmentsOf(sentences, segmentSize(sentences, budget));
  const rank = new Float64Array(sentences.length);
  const index = new TermIndex(); // one for the document: each word form is folded once
  const order: number[][] = segments.map((seg) => {
    const terms = seg.map((i) => index.idsOf(sentences[i]!.text));
    const { scores } = textRankTerms(terms, index.size);
    // Scores relative to the segment's mean (1/n), so segments of any size compare.
    seg.forEach((i, k) => (rank[i] = scores[k]! * seg.length));
    return rankOrder(scores).map((k) => seg[k]!);
  });

  const costs = new SentenceCosts(sentences, count);
  const chosen = new Uint8Array(sentences.length);
  let left = budget;
  const take = (i: number) => {
    chosen[i] = 1;
    left -= costs.exact(i);
  };
  const kept = mandatory(sentences, costs, order, rank, budget);
  for (const i of kept) take(i);

  // Each segment's share of what is left, best sentences first; skip those that do not fit.
  const rankedTokens = segments.reduce((s, seg) => s + estimated(sentences, seg), 0);
  const spare = left;
  segments.forEach((seg, k) => {
    let quota = (spare * estimated(sentences, seg)) / rankedTokens;
    for (const i of order[k]!) {
      if (!chosen[i] && costs.fits(i, quota)) {
        quota -= costs.exact(i);
        take(i);
      }
    }
  });
  // Rounding leftovers: the best remaining sentences of the whole document, if more central than
  // their segment's average (filling the budget with outliers would only add noise).
  const rest = sentences
    .map((_, i) => i)
    .filter((i) => !chosen[i] && rank[i]! >= 1 && costs.estimate(i) <= 2 * left)
    .sort((a, b) => rank[b]! - rank[a]! || a - b);
  for (const i of rest) if (costs.fits(i, left)) take(i);

  const fitted = fitExactly(doc, costs, chosen, new Set(kept), rank, budget, count);
  return {
    ...fitted,
    reduced: true,
    documentTokens,
    sections,
    sectionsKept: new Set(sentences.filter((_, i) => chosen[i]).map((s) => s.section)).size,
  };
}

/**
 * Sentences joined into pieces may count a little differently from one by one: the kept text is
 * counted as the chunker will count it, and while it is over budget the least central sentences
 * go, those every summary keeps (titles, each section's best) last.
 */
function fitExactly(
  doc: DocumentSentences,
  costs: SentenceCosts,
  chosen: Uint8Array,
  kept: Set<number>,
  rank: Float64Array,
  budget: number,
  count: CountTokens,
): { pieces: Piece[]; selectedTokens: number } {
  const exact = (pieces: Piece[]) => pieces.reduce((n, p) => n + count(p.text) + 1, 0);
  let pieces = toPieces(doc.sentences, doc.passages, chosen);
  let tokens = exact(pieces);
  if (tokens <= budget) return { pieces, selectedTokens: tokens };
  const removable = doc.sentences
    .map((_, i) => i)
    .filter((i) => chosen[i])
    .sort((a, b) => Number(kept.has(a)) - Number(kept.has(b)) || rank[a]! - rank[b]! || b - a);
  let next = 0;
  while (tokens > budget && next < removable.length) {
    // Drop as much as the excess, then count again.
    for (let over = tokens - budget; over > 0 && next < removable.length; next++) {
      chosen[removable[next]!] = 0;
      over -= costs.exact(removable[next]!);
    }
    pieces = toPieces(doc.sentences, doc.passages, chosen);
    tokens = exact(pieces);
  }
  return { pieces, selectedTokens: tokens };
}

/** Segments of about this many tokens, so there are about budget / TOKENS_PER_SEGMENT of them. */
function segmentSize(sentences: Sentence[], budget: number): number {
  const total = sentences.reduce((s, x) => s + x.cost, 0);
  const count = Math.max(1, Math.floor(budget / TOKENS_PER_SEGMENT));
  return Math.max(MIN_SEGMENT_TOKENS, Math.ceil(total / count));
}

/** Runs of a section's ranked sentences (titles excluded) of at most `size` tokens. */
function segmentsOf(sentences: Sentence[], size: number): number[][] {
  const segments: number[][] = [];
  let cur: number[] = [];
  let tokens = 0;
  let section = -1;
  sentences.forEach((s, i) => {
    if (s.title) return;
    if (cur.length && (s.section !== section || tokens + s.cost > size)) {
      segments.push(cur);
      cur = [];
      tokens = 0;
    }
    cur.push(i);
    tokens += s.cost;
    section = s.section;
  });
  if (cur.length) segments.push(cur);
  return segments;
}

/**
 * What every bounded summary keeps: each section's title and each segment's best sentence. When
 * that is over budget (many short pages, say), one sentence per section: its best among those
 * within an even share of the budget, or its shortest; titles stay if they take at most a quarter.
 * When even that is over budget, the shortest of those, so as many sections as possible are heard.
 */
function mandatory(
  sentences: Sentence[],
  costs: SentenceCosts,
  order: number[][],
  rank: Float64Array,
  budget: number,
): number[] {
  const titles = sentences.flatMap((s, i) => (s.title ? [i] : []));
  const segmentTops = order.map((o) => o[0]!);
  if (costs.sum(titles) + costs.sum(segmentTops) <= budget) return [...titles, ...segmentTops];

  const bySection = new Map<number, number[]>();
  for (const o of order) {
    const section = sentences[o[0]!]!.section;
    const ids = bySection.get(section) ?? [];
    for (const i of o) ids.push(i);
    bySection.set(section, ids);
  }
  const kept = costs.sum(titles) <= budget / 4 ? titles : [];
  const share = (budget - costs.sum(kept)) / bySection.size;
  const picks = [...bySection.values()].map((ids) => {
    const best = ids.sort((a, b) => rank[b]! - rank[a]! || a - b).find((i) => costs.fits(i, share));
    return best ?? ids.reduce((a, b) => (costs.estimate(b) < costs.estimate(a) ? b : a));
  });
  if (costs.sum(kept) + costs.sum(picks) <= budget) return [...kept, ...picks];
  const out: number[] = [];
  let left = budget;
  for (const i of picks.sort((a, b) => costs.exact(a) - costs.exact(b) || a - b)) {
    if (costs.exact(i) > left) break;
    out.push(i);
    left -= costs.exact(i);
  }
  return out;
}

/** Estimated tokens of sentences. */
const estimated = (sentences: Sentence[], ids: number[]) =>
  ids.reduce((s, i) => s + sentences[i]!.cost, 0);

/** Kept sentences back into pieces, in document order: one piece per place, titles apart. */
function toPieces(sentences: Sentence[], passages: string[], chosen: Uint8Array): Piece[] {
  const pieces: Piece[] = [];
  let passage = -1;
  let section = -1;
  sentences.forEach((s, i) => {
    if (!chosen[i]) return;
    if (s.passage === passage) {
      pieces[pieces.length - 1]!.text += ` ${s.text}`;
      return;
    }
    // The chunker prefers to start a chunk where a section starts.
    pieces.push({ text: s.text, label: passages[s.passage]!, boundary: s.section !== section });
    passage = s.passage;
    section = s.section;
  });
  return pieces;
}
