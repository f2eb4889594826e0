import type { CountTokens } from '../chunking';
import { gapOfWidth } from '../retrieval/choose-passages';
import { WITH_NEIGHBOURS } from '../retrieval/passage-index';
import type { Hit } from './knowledge.repo';

/**
 * The passages a question across files gets, from the ranked hits of every file, best first by
 * BM25, those in another language than the question's counted at half their score (a file in
 * another language matches it only on names and numbers, but a file whose language was taken
 * for another still competes on its words), within half of the best score, each counted with
 * the model's tokenizer against the budget. Then, with what is left, the passages on either side
 * of the first few when cut from the same place. Measured on XQuAD across 576 files
 * (bench/ask-files.bench.ts): the hard "question's language first" order and a 0.7 decay of a
 * file's further passages lost answers whose file's language was misread, and passages under
 * half of the best score rarely held an answer and pushed out the best ones' neighbours.
 */
const OTHER_LANGUAGE = 0.5;
const FLOOR = 0.5;
const PASSAGE_OVERHEAD = 16;
/**
 * A file's passages beyond this many wait until every other file's passages above the floor are
 * in: one file matching a question in many places cannot fill the budget while the answer is in
 * another (the "not five of one file"). A softer decay of every further passage lost
 * answers on XQuAD; this cap only acts when the budget is short.
 */
const PER_FILE_FIRST = 3;

export type Source = Omit<Hit, 'score'> & { score: number };
type Run = Source & { lastOrd: number };

/**
 * The hits best first, those in another language than the question's at OTHER_LANGUAGE of their
 * score (none when `questionLanguage` is '').
 */
export function weighByLanguage(hits: Hit[], questionLanguage: string): Hit[] {
  return hits
    .map((h) =>
      questionLanguage && h.language !== questionLanguage
        ? { ...h, score: h.score * OTHER_LANGUAGE }
        : h,
    )
    .sort((a, b) => b.score - a.score);
}

/**
 * `questionLanguage` is the language the question is taken to be in, or '' when it is none of
 * the asked files' languages (then no passage is counted down for its language). `floor`: the
 * share of the best score a passage needs (none for ranks fused with vectors, by-meaning.ts).
 */
export function chooseSources(
  hits: Hit[],
  questionLanguage: string,
  budget: number,
  count: CountTokens,
  floor = FLOOR,
): { picked: Source[]; used: number } {
  const weighed = weighByLanguage(hits, questionLanguage);
  const best = weighed[0]?.score ?? 0;
  const above = weighed.filter((h) => !(best > 0 && h.score < best * floor));
  const perFile = new Map<number, number>();
  const first: Source[] = [];
  const after: Source[] = [];
  for (const h of above) {
    const n = perFile.get(h.file_id) ?? 0;
    perFile.set(h.file_id, n + 1);
    (n < PER_FILE_FIRST ? first : after).push(h);
  }
  const picked: Source[] = [];
  let used = 0;
  for (const h of [...first, ...after]) {
    const cost = count(h.text) + PASSAGE_OVERHEAD;
    if (used + cost > budget) continue;
    picked.push(h);
    used += cost;
  }
  return { picked, used };
}

/** The first picks whose neighbours are worth fetching. */
export const neighbourPlaces = (picked: Source[]) => picked.slice(0, WITH_NEIGHBOURS);

/**
 * The neighbours of the first picks (neighbourPlaces), where the budget allows, each kept next
 * to its passage in the file's order: the best first, then the next.
 */
export function withNeighbours(
  picked: Source[],
  neighbours: Omit<Hit, 'score'>[],
  budget: number,
  used: number,
  count: CountTokens,
): Source[] {
  const have = new Set(picked.map((p) => `${p.file_id}:${p.ord}`));
  const around = new Map<Source, Source[]>();
  for (const top of neighbourPlaces(picked)) {
    const group: Source[] = [top];
    for (const n of neighbours) {
      const key = `${n.file_id}:${n.ord}`;
      if (n.file_id !== top.file_id || n.ref !== top.ref || Math.abs(n.ord - top.ord) !== 1)
        continue;
      if (have.has(key)) continue;
      const cost = count(n.text) + PASSAGE_OVERHEAD;
      if (used + cost > budget) continue;
      used += cost;
      have.add(key);
      group.push({ ...n, score: 0 });
    }
    around.set(
      top,
      group.sort((a, b) => a.ord - b.ord),
    );
  }
  return picked.flatMap((p) => around.get(p) ?? [p]);
}

/** Where a passage is, for people: "page 4", "slide 2", "Prices, rows 2–40", "paragraph 3". */
export function whereOf(ref: string): string {
  const m = /^(Page|Slide|Paragraph) (.*)$/.exec(ref);
  if (m) return `${m[1]!.toLowerCase()} ${m[2]}`;
  const row = /^(.*) row (.*)$/.exec(ref);
  if (row) return `${row[1]}, row ${row[2]}`;
  return ref;
}

/**
 * The chosen passages as the prompt gives them: each file's together (the files in the order of
 * their best passage), in the file's order, and passages that follow each other in one place
 * joined into one excerpt, so the words around an answer cut at a passage's edge reach the model
 * as written (between two numbered excerpts they would not read on).
 */
export function asExcerpts(sources: Source[]): Source[] {
  const byFile = new Map<number, Source[]>();
  for (const s of sources) {
    const group = byFile.get(s.file_id);
    if (group) group.push(s);
    else byFile.set(s.file_id, [s]);
  }
  const out: Run[] = [];
  for (const group of byFile.values()) {
    let last: Run | undefined;
    for (const s of group.sort((a, b) => a.ord - b.ord)) {
      if (last && s.ref === last.ref && s.ord === last.lastOrd + 1) {
        last.text += gapOfWidth(s.char_start - last.char_end) + s.text;
        last.char_end = s.char_end;
        last.lastOrd = s.ord;
        last.score = Math.max(last.score, s.score);
        continue;
      }
      out.push((last = { ...s, lastOrd: s.ord }));
    }
  }
  return out.map(({ lastOrd: _, ...s }) => s);
}
