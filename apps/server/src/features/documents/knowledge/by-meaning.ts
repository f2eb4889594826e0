import type { Db } from '../../../db/database';
import type { LanguageModel } from '../../ai';
import { inTurn, type Embedder } from '../retrieval/embeddings';
import { fuseRankings } from '../retrieval/rank-fusion';
import { knowledgeRepo, type Hit, type Place } from './knowledge.repo';
import { weighByLanguage } from './select-sources';
import { vectorsRepo } from './vectors.repo';
import { cosine, queryVector, type QueryVector } from './vectors';

/**
 * Hybrid ranking across files, with an embeddings model (AI_EMBEDDINGS_MODEL): the question's
 * vector (its only model call here; the passages' vectors were computed at indexing,
 * vector-indexer.ts) is compared with the passages of the files nearest it in meaning (by their
 * mean vector) and with those BM25 found, and the two rankings are fused by reciprocal rank
 * (rank-fusion.ts): a passage that says it in other words, or in another language, is found; one
 * both rankings put high comes first. Files without vectors yet are found by their words alone.
 */
/** Files whose passages are compared with the question, nearest first... */
const NEAREST_FILES = 24;
/** ...while their passages stay under this many (the first file's always). */
const COMPARED_PASSAGES = 8_000;

export interface MeaningQuery {
  userId: number;
  text: string;
  fileIds?: number[];
  owner?: string | number;
  signal?: AbortSignal;
}

const keyOf = (p: Place) => `${p.file_id}:${p.ord}`;

/** The BM25 hits fused with the ranking by meaning, best first, scored by fused rank. */
export async function fuseWithMeaning(
  deps: { db: Db; ai: Pick<LanguageModel, 'inSlot'>; embedder: Embedder },
  q: MeaningQuery,
  hits: Hit[],
  questionLanguage: string,
  limit: number,
): Promise<Hit[]> {
  // A person waits for the answer: the question's vector goes in their turn, as the answer does.
  const embedder = inTurn(deps.embedder, deps.ai, { priority: 'interactive', owner: q.owner });
  const [vector] = await embedder.embed([q.text], q.signal);
  if (!vector?.length) return hits;
  const byWords = weighByLanguage(hits, questionLanguage);
  const byMeaning = await rankByMeaning(
    deps.db,
    deps.embedder.model,
    q,
    queryVector(vector),
    byWords,
    limit,
  );
  // fuseRankings ranks numbers: each place gets one, the first time either ranking names it.
  const places: Place[] = [];
  const numbers = new Map<string, number>();
  const rank = (list: Place[]) =>
    list.map((p) => {
      const key = keyOf(p);
      let i = numbers.get(key);
      if (i === undefined) numbers.set(key, (i = places.push(p) - 1));
      return i;
    });
  const fused = fuseRankings([rank(byWords), rank(byMeaning)], limit);
  const known = new Map(byWords.map((h) => [keyOf(h), h]));
  const missing = fused.map((f) => places[f.index]!).filter((p) => !known.has(keyOf(p)));
  for (const p of await knowledgeRepo.passagesAt(deps.db, q.userId, missing))
    known.set(keyOf(p), { ...p, score: 0 });
  return fused.flatMap((f) => {
    const hit = known.get(keyOf(places[f.index]!));
    return hit ? [{ ...hit, score: f.score }] : [];
  });
}

/** The passages nearest the question in meaning, best first. */
async function rankByMeaning(
  db: Db,
  model: string,
  q: MeaningQuery,
  vector: QueryVector,
  byWords: Place[],
  limit: number,
): Promise<Place[]> {
  const files = (await vectorsRepo.centroids(db, q.userId, model, q.fileIds))
    .map((f) => ({
      id: f.file_id,
      passages: f.passages,
      near: f.centroid ? cosine(vector, f.centroid) : -1,
    }))
    .sort((a, b) => b.near - a.near);
  const compared = new Set<number>();
  let passages = 0;
  for (const f of files) {
    if (compared.size >= NEAREST_FILES) break;
    if (compared.size > 0 && passages + f.passages > COMPARED_PASSAGES) break;
    compared.add(f.id);
    passages += f.passages;
  }
  const rows = [
    ...(await vectorsRepo.ofFiles(db, q.userId, [...compared])),
    ...(await vectorsRepo.at(
      db,
      q.userId,
      byWords.filter((p) => !compared.has(p.file_id)),
    )),
  ];
  return rows
    .map((r) => ({ file_id: r.file_id, ord: r.ord, near: cosine(vector, r.vector) }))
    .sort((a, b) => b.near - a.near || a.file_id - b.file_id || a.ord - b.ord)
    .slice(0, limit);
}
