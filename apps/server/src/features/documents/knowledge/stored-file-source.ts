import type { Db, Dialect } from '../../../db/database';
import { estimateTokens } from '../../../lib/token-estimate';
import type { LanguageModel } from '../../ai';
import type { Embedder } from '../retrieval/embeddings';
import { WITH_NEIGHBOURS, type Candidate } from '../retrieval/passage-index';
import type { PassageSearch } from '../retrieval/passage-pool';
import { fuseWithMeaning } from './by-meaning';
import { knowledgeRepo, type Hit } from './knowledge.repo';
import { INDEX_VERSION, indexTerms } from './terms';

/** With an embeddings model: who asks, for the question's vector (its only model call here). */
export interface StoredMeaning {
  ai: Pick<LanguageModel, 'inSlot'>;
  embedder: Embedder;
  owner?: string | number;
  signal?: AbortSignal;
}

/**
 * The single-file ask (POST /api/askQuestions with a `file_id`) answered from the stored index
 * once the file is searchable: its passages ranked in the database, scoped to the user and the
 * file, the question cut into terms by the file's language as the in-memory index does. With an
 * embeddings model and the file's vectors stored (vector-indexer.ts), the ranking by words is
 * fused with the ranking by meaning as across files (by-meaning.ts), so a file's passages are
 * embedded once, by the indexer; before its vectors are there, its words answer alone. Undefined
 * while the file is still being read: the caller builds the index in memory as before.
 */
export async function storedFileSearch(
  db: Db,
  dialect: Dialect,
  userId: number,
  fileId: number,
  meaning?: StoredMeaning,
): Promise<PassageSearch | undefined> {
  const state = await knowledgeRepo.fileState(db, userId, fileId);
  if (state?.state !== 'searchable' || state.reader !== INDEX_VERSION) return undefined;
  const language = state.language;
  const withVectors =
    meaning && state.vector_model === meaning.embedder.model ? meaning : undefined;
  const candidate = (h: Omit<Hit, 'score'>, score: number): Candidate => ({
    text: h.text,
    ref: h.ref,
    tokens: estimateTokens(h.text),
    index: h.ord,
    score,
    start: h.char_start,
    end: h.char_end,
  });
  const byMeaning = async (question: string, hits: Hit[], limit: number) => {
    if (!withVectors) return hits;
    const { ai, embedder, owner, signal } = withVectors;
    const query = { userId, text: question, fileIds: [fileId], owner, signal };
    try {
      // One file: its passages share a language, so none is counted down for it ('').
      return await fuseWithMeaning({ db, ai, embedder }, query, hits, '', limit);
    } catch (err) {
      // The embeddings model failed: the words answer alone, as they would without it.
      if (signal?.aborted) throw err;
      return hits;
    }
  };
  return async (question, limit) => {
    const terms = [...new Set(indexTerms(question, language))];
    const byWords = await knowledgeRepo.search(db, dialect, {
      userId,
      terms,
      fileIds: [fileId],
      limit,
    });
    let hits = await byMeaning(question, byWords, limit);
    // Nothing matches: the beginning of the document is the best guess (as in memory).
    if (hits.length === 0) hits = await knowledgeRepo.first(db, userId, fileId, limit);
    const ranked = hits.map((h) => candidate(h, h.score));
    // The neighbours of the first few, as the in-memory index offers them (passage-index.ts).
    const tops = hits.slice(0, WITH_NEIGHBOURS);
    const near = await knowledgeRepo.neighboursOf(db, userId, tops);
    const neighbours = near.sort((a, b) => a.ord - b.ord).map((n) => candidate(n, 0));
    return { language, ranked, neighbours };
  };
}
