import { estimateTokens } from '../../ai';
import { chunkDocument } from '../chunking';
import type { TextUnit } from '../../files';
import { detectLanguage } from './detect-language';
import { languageRules } from './languages';
import { analyze } from './terms';

/**
 * A file's passages and their inverted index for Okapi BM25 (k1 = 1.2, b = 0.75). Built once per
 * file (in a worker, see passage-pool.ts) and kept, so a question only looks up its own terms.
 * Passages are cut by the token estimate, not the model's tokenizer (which lives on the main
 * thread), into pieces small enough to rank precisely; the prompt's budget is applied to the
 * chosen ones with the real count.
 */
export const PASSAGE_TOKENS = 160;

export interface Passage {
  text: string;
  ref: string;
  /** Estimated tokens. */
  tokens: number;
  /** What stood between it and the passage before, when both are of one paragraph (chunking.ts). */
  joins?: string;
}

export interface PassageIndex {
  language: string;
  passages: Passage[];
  /** term → passage numbers (ascending) and the term's count in each. */
  postings: Map<string, { docs: number[]; freqs: number[] }>;
  lengths: Uint32Array;
  avgLength: number;
  /** Characters of text kept, for the cache's bound. */
  chars: number;
}

export interface Candidate extends Passage {
  index: number;
  score: number;
  /** Where it is in the file's text, when known (a stored file's passages). */
  start?: number;
  end?: number;
}

export function buildPassageIndex(units: TextUnit[], language?: string): PassageIndex {
  const passages = chunkDocument(units, PASSAGE_TOKENS, estimateTokens, { oneLabel: true });
  const lang = language ?? detectLanguage(units.map((u) => u.text).join('\n'));
  const rules = languageRules(lang);
  const postings = new Map<string, { docs: number[]; freqs: number[] }>();
  const lengths = new Uint32Array(passages.length);
  let total = 0;
  let chars = 0;
  passages.forEach((p, i) => {
    const counts = new Map<string, number>();
    const terms = analyze(p.text, rules);
    for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
    for (const [t, f] of counts) {
      let list = postings.get(t);
      if (!list) postings.set(t, (list = { docs: [], freqs: [] }));
      list.docs.push(i);
      list.freqs.push(f);
    }
    lengths[i] = terms.length;
    total += terms.length;
    chars += p.text.length;
  });
  return {
    language: rules.code,
    passages,
    postings,
    lengths,
    avgLength: total / Math.max(1, passages.length) || 1,
    chars,
  };
}

/** The `limit` best passages for a question, best first (ties in document order). */
export function searchPassages(index: PassageIndex, question: string, limit: number): Candidate[] {
  const n = index.passages.length;
  const scores = new Float64Array(n);
  const terms = [...new Set(analyze(question, languageRules(index.language)))];
  const k1 = 1.2;
  const b = 0.75;
  for (const t of terms) {
    const list = index.postings.get(t);
    if (!list) continue;
    const df = list.docs.length;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    for (let j = 0; j < df; j++) {
      const d = list.docs[j]!;
      const f = list.freqs[j]!;
      scores[d]! +=
        (idf * f * (k1 + 1)) / (f + k1 * (1 - b + (b * index.lengths[d]!) / index.avgLength));
    }
  }
  const order: number[] = [];
  for (let i = 0; i < n; i++) if (scores[i]! > 0) order.push(i);
  order.sort((x, y) => scores[y]! - scores[x]! || x - y);
  // Nothing matches: the beginning of the document is the best guess.
  const picked = order.length ? order.slice(0, limit) : [...Array(Math.min(limit, n)).keys()];
  return picked.map((i) => ({ ...index.passages[i]!, index: i, score: scores[i]! }));
}

/** The passages on either side of one, when they were cut from the same place (same reference). */
export function neighboursOf(index: PassageIndex, i: number): Candidate[] {
  const at = index.passages[i];
  if (!at) return [];
  return [i - 1, i + 1]
    .filter((j) => index.passages[j]?.ref === at.ref)
    .map((j) => ({ ...index.passages[j]!, index: j, score: 0 }));
}

/**
 * Ranked passages whose neighbours are offered to the prompt, best first: an answer at a
 * passage's edge has the words around it in the next one (measured on XQuAD, bench/ask.bench.ts).
 */
export const WITH_NEIGHBOURS = 3;

/** The neighbours of the first WITH_NEIGHBOURS ranked passages, the best one's first. */
export function neighboursOfRanked(index: PassageIndex, ranked: Candidate[]): Candidate[] {
  return ranked.slice(0, WITH_NEIGHBOURS).flatMap((c) => neighboursOf(index, c.index));
}
