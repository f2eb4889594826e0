/**
 * Reciprocal rank fusion (Cormack et al., 2009): each passage scores Σ 1 / (K + rank) over the
 * rankings it appears in, so BM25 and vector similarity vote without their scores being compared.
 */
export const RRF_K = 60;

export function fuseRankings(
  rankings: number[][],
  limit: number,
): { index: number; score: number }[] {
  const scores = new Map<number, number>();
  for (const ranking of rankings)
    ranking.forEach((index, rank) =>
      scores.set(index, (scores.get(index) ?? 0) + 1 / (RRF_K + rank + 1)),
    );
  return [...scores]
    .map(([index, score]) => ({ index, score }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, limit);
}

/** Passage numbers by cosine similarity to the query, best first. */
export function vectorRanking(
  vectors: Float32Array,
  dims: number,
  query: number[],
  limit: number,
): number[] {
  const n = vectors.length / dims;
  let qNorm = 0;
  for (const x of query) qNorm += x * x;
  qNorm = Math.sqrt(qNorm) || 1;
  const sims = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let dot = 0;
    let norm = 0;
    for (let d = 0; d < dims; d++) {
      const v = vectors[i * dims + d]!;
      dot += v * query[d]!;
      norm += v * v;
    }
    sims[i] = dot / ((Math.sqrt(norm) || 1) * qNorm);
  }
  return [...sims.keys()].sort((a, b) => sims[b]! - sims[a]! || a - b).slice(0, limit);
}
