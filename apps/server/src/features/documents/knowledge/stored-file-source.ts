import type { Db, Dialect } from '../../../db/database';
import { estimateTokens } from '../../../lib/token-estimate';
import { WITH_NEIGHBOURS, type Candidate } from '../retrieval/passage-index';
import type { PassageSearch } from '../retrieval/passage-pool';
import { knowledgeRepo, type Hit } from './knowledge.repo';
import { INDEX_VERSION, indexTerms } from './terms';

/**
 * The single-file ask (POST /api/askQuestions with a `file_id`) answered from the stored index
 * once the file is searchable: its passages ranked in the database, scoped to the user and the
 * file, the question cut into terms by the file's language as the in-memory index does. Undefined
 * while the file is still being read: the caller builds the index in memory as before.
 */
export async function storedFileSearch(
  db: Db,
  dialect: Dialect,
  userId: number,
  fileId: number,
): Promise<PassageSearch | undefined> {
  const state = await knowledgeRepo.fileState(db, userId, fileId);
  if (state?.state !== 'searchable' || state.reader !== INDEX_VERSION) return undefined;
  const language = state.language;
  const candidate = (h: Omit<Hit, 'score'>, score: number): Candidate => ({
    text: h.text,
    ref: h.ref,
    tokens: estimateTokens(h.text),
    index: h.ord,
    score,
    start: h.char_start,
    end: h.char_end,
  });
  return async (question, limit) => {
    const terms = [...new Set(indexTerms(question, language))];
    let hits = await knowledgeRepo.search(db, dialect, { userId, terms, fileIds: [fileId], limit });
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
