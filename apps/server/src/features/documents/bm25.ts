/**
 * Okapi BM25 ranking of passages against a query (k1 = 1.2, b = 0.75). Words are lower-cased
 * letter/number runs; Chinese, Japanese and Korean text, which has no spaces, is indexed by
 * overlapping character pairs so a query word still matches inside a sentence.
 */
const STOPWORDS = new Set(
  (
    'a an and are as at be but by for from has have how i in is it its of on or that the this to ' +
    'was were what when where which who why will with do does did about can you your me my we'
  ).split(' '),
);

const CJK = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]/u;

export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (CJK.test(word)) {
      const chars = [...word];
      if (chars.length === 1) out.push(word);
      for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
    } else if (!STOPWORDS.has(word)) {
      out.push(word);
    }
  }
  return out;
}

export interface Ranked {
  index: number;
  score: number;
}

/** Indices of the passages, best match first; ties keep document order. */
export function bm25Rank(passages: string[], query: string, k1 = 1.2, b = 0.75): Ranked[] {
  const docs = passages.map((p) => {
    const tf = new Map<string, number>();
    const toks = tokenize(p);
    for (const t of toks) tf.set(t, (tf.get(t) ?? 0) + 1);
    return { tf, len: toks.length };
  });
  const n = docs.length;
  const avgLen = docs.reduce((s, d) => s + d.len, 0) / Math.max(1, n) || 1;
  const terms = [...new Set(tokenize(query))];
  const df = new Map(terms.map((t) => [t, docs.filter((d) => d.tf.has(t)).length]));
  return docs
    .map((d, index) => {
      let score = 0;
      for (const t of terms) {
        const f = d.tf.get(t);
        if (!f) continue;
        const dfT = df.get(t) ?? 0;
        const idf = Math.log(1 + (n - dfT + 0.5) / (dfT + 0.5));
        score += (idf * f * (k1 + 1)) / (f + k1 * (1 - b + (b * d.len) / avgLen));
      }
      return { index, score };
    })
    .sort((x, y) => y.score - x.score || x.index - y.index);
}
