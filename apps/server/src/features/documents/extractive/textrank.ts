import { TermIndex } from './terms';

/**
 * TextRank (Mihalcea & Tarau, 2004) over sentences: a graph whose edges weigh how similar two
 * sentences are, ranked by weighted PageRank, so a sentence scores high when it shares its words
 * with many other sentences that score high — it says what the passage is about.
 *
 * Similarity is the cosine of TF-IDF vectors (binary term frequency, IDF over the sentences
 * ranked together), so words found everywhere weigh little in any language. Edges join sentences
 * at most `window` positions apart, counted round the passage as a ring: on a long passage the
 * graph stays linear in its length, and every sentence, first and last included, is compared with
 * the same number of others (on a line, the middle ones would win for having more neighbours).
 */
export interface TextRankOptions {
  /** Only sentences at most this many positions apart (round the ring) are compared. */
  window?: number;
  /** PageRank damping factor (default 0.85, as in the paper). */
  damping?: number;
  /**
   * Iterations stop when the scores (summing to 1) move less than this per sentence, in total
   * (L1 < n × tolerance; default 1e-6, networkx's criterion).
   */
  tolerance?: number;
  maxIterations?: number;
}

/** Neighbours on each side a sentence is compared with: about a paragraph or two. */
export const DEFAULT_WINDOW = 10;

/** A sparse, symmetric weighted graph: neighbours of node i are `to[start[i] .. start[i+1])`. */
export interface SentenceGraph {
  size: number;
  start: Int32Array;
  to: Int32Array;
  weight: Float64Array;
}

export interface Ranking {
  /** One score per sentence, summing to 1. */
  scores: Float64Array;
  iterations: number;
}

/** Scores of the sentences, in their order: higher is more central. */
export function textRank(sentences: string[], opts: TextRankOptions = {}): Ranking {
  const index = new TermIndex();
  return textRankTerms(
    sentences.map((s) => index.idsOf(s)),
    index.size,
    opts,
  );
}

/** TextRank of sentences given as distinct term ids (below `vocabulary`), from a TermIndex. */
export function textRankTerms(
  terms: number[][],
  vocabulary: number,
  opts: TextRankOptions = {},
): Ranking {
  return pageRank(similarityGraph(terms, vocabulary, opts.window ?? DEFAULT_WINDOW), opts);
}

export function similarityGraph(
  sentenceTerms: number[][],
  vocabulary: number,
  window: number,
): SentenceGraph {
  const n = sentenceTerms.length;
  // Local ids for the terms of these sentences (+1; 0 = not seen), and each term's postings:
  // the sentences holding it, in order.
  const localOf = new Int32Array(vocabulary);
  const postings: number[][] = [];
  const terms = sentenceTerms.map((ids, i) => {
    const local = new Array<number>(ids.length);
    ids.forEach((id, k) => {
      let l = localOf[id]! - 1;
      if (l < 0) {
        l = postings.length;
        localOf[id] = l + 1;
        postings.push([]);
      }
      postings[l]!.push(i);
      local[k] = l;
    });
    return local;
  });
  // idf²: a term's contribution to the dot product of two binary vectors that both contain it.
  const idf2 = Float64Array.from(postings, (p) => Math.log(1 + n / p.length) ** 2);
  const norms = terms.map((ts) => Math.sqrt(ts.reduce((s, t) => s + idf2[t]!, 0)));

  // Dot products through the postings: only pairs sharing a term within the window are visited.
  const cursor = new Int32Array(postings.length);
  const dot = new Float64Array(n);
  // At most 2 × `window` edges leave each sentence towards later ones (ahead and round the ring).
  const capacity = n * Math.min(2 * window, Math.max(n - 1, 0));
  const from = new Int32Array(capacity);
  const to = new Int32Array(capacity);
  const weight = new Float64Array(capacity);
  let edges = 0;
  const touched: number[] = [];
  for (let i = 0; i < n; i++) {
    for (const t of terms[i]!) {
      const list = postings[t]!;
      const at = cursor[t]!;
      cursor[t] = at + 1; // sentences are visited in order, so list[at] === i
      let k = at + 1;
      for (; k < list.length && list[k]! - i <= window; k++) {
        const j = list[k]!;
        if (dot[j] === 0) touched.push(j);
        dot[j] = dot[j]! + idf2[t]!;
      }
      // Round the ring: the last sentences are within the window of the first ones.
      for (let e = list.length - 1; e >= k && list[e]! >= n - window + i; e--) {
        const j = list[e]!;
        if (dot[j] === 0) touched.push(j);
        dot[j] = dot[j]! + idf2[t]!;
      }
    }
    for (const j of touched) {
      from[edges] = i;
      to[edges] = j;
      weight[edges++] = dot[j]! / (norms[i]! * norms[j]!);
      dot[j] = 0;
    }
    touched.length = 0;
  }
  return symmetricCsr(n, from.subarray(0, edges), to.subarray(0, edges), weight.subarray(0, edges));
}

/** The edges i–j (each given once) as a sparse matrix holding both directions. */
function symmetricCsr(
  n: number,
  from: Int32Array,
  to: Int32Array,
  weight: Float64Array,
): SentenceGraph {
  const start = new Int32Array(n + 1);
  for (let e = 0; e < from.length; e++) {
    start[from[e]! + 1]! += 1;
    start[to[e]! + 1]! += 1;
  }
  for (let i = 0; i < n; i++) start[i + 1]! += start[i]!;
  const fill = start.slice(0, n);
  const neighbour = new Int32Array(start[n]!);
  const w = new Float64Array(start[n]!);
  for (let e = 0; e < from.length; e++) {
    const a = from[e]!;
    const b = to[e]!;
    neighbour[fill[a]!] = b;
    w[fill[a]!++] = weight[e]!;
    neighbour[fill[b]!] = a;
    w[fill[b]!++] = weight[e]!;
  }
  return { size: n, start, to: neighbour, weight: w };
}

/**
 * Weighted PageRank by power iteration until the scores converge. A sentence sharing no word
 * with any other (a dangling node) spreads its score evenly, so the scores keep summing to 1.
 */
export function pageRank(graph: SentenceGraph, opts: TextRankOptions = {}): Ranking {
  const { size: n, start, to, weight } = graph;
  const d = opts.damping ?? 0.85;
  const tolerance = (opts.tolerance ?? 1e-6) * n;
  const maxIterations = opts.maxIterations ?? 200;
  if (n === 0) return { scores: new Float64Array(0), iterations: 0 };
  const strength = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (let k = start[i]!; k < start[i + 1]!; k++) strength[i]! += weight[k]!;
  }
  // Share of j's score that goes to each neighbour along edge k (j = to[k]).
  const share = new Float64Array(to.length);
  for (let k = 0; k < to.length; k++) share[k] = weight[k]! / strength[to[k]!]!;
  let scores = new Float64Array(n).fill(1 / n);
  let next = new Float64Array(n);
  let iterations = 0;
  while (iterations < maxIterations) {
    iterations += 1;
    let dangling = 0;
    for (let i = 0; i < n; i++) if (strength[i] === 0) dangling += scores[i]!;
    const base = (1 - d) / n + (d * dangling) / n;
    let delta = 0;
    for (let i = 0; i < n; i++) {
      let sum = 0;
      // Symmetric graph: i's in-neighbours are its neighbours.
      for (let k = start[i]!; k < start[i + 1]!; k++) sum += share[k]! * scores[to[k]!]!;
      next[i] = base + d * sum;
      delta += Math.abs(next[i]! - scores[i]!);
    }
    [scores, next] = [next, scores];
    if (delta < tolerance) break;
  }
  return { scores, iterations };
}

/** Indexes of the sentences from most to least central; ties go to the earlier sentence. */
export function rankOrder(scores: Float64Array): number[] {
  return Array.from(scores.keys()).sort((a, b) => scores[b]! - scores[a]! || a - b);
}
