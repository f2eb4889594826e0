import type { AskFilesResponse } from '@inkwell/contract';
import type { Db, Dialect } from '../../../db/database';
import { conflict, notFound } from '../../../lib/http-error';
import type { ChatTurn } from '../../ai';
import { defaultPassageTokens } from '../ask.service';
import {
  clamp,
  complete,
  contextOf,
  inputBudget,
  promptTokens,
  requireModel,
  type AiDeps,
} from '../model-calls';
import { fuseWithMeaning } from './by-meaning';
import { knowledgeRepo, type Hit } from './knowledge.repo';
import {
  asExcerpts,
  chooseSources,
  neighbourPlaces,
  whereOf,
  withNeighbours,
  type Source,
} from './select-sources';
import { questionTerms } from './terms';

/**
 * A question across a user's files: their passages ranked in the database's index (scoped to
 * the user), the best chosen within the passage budget (select-sources.ts), and the model's
 * answer citing them by number. No model: 503 before anything is searched.
 */
const SYSTEM =
  "You answer questions using only the numbered passages given, taken from the user's files. " +
  'After each fact, cite the passage number in square brackets, e.g. [2]. If the passages do ' +
  'not contain the answer, say that the files do not say.';

/** Ranked passages looked at per question: far more than any budget takes. */
export const CANDIDATES = 200;

export interface AskFilesDeps extends AiDeps {
  db: Db;
  dialect: Dialect;
}

export interface AskFilesQuery {
  userId: number;
  text: string;
  /** Undefined: every file of the user. */
  fileIds?: number[];
}

/**
 * The asked files' state, checked before any work: 404 for a file that is not the user's, 409
 * when none of them is searchable yet. Answers the languages of the searchable ones.
 */
export async function checkAskable(db: Db, userId: number, fileIds?: number[]) {
  const ids = fileIds && [...new Set(fileIds)];
  const rows = await knowledgeRepo.states(db, userId, ids);
  if (ids && rows.length < ids.length) throw notFound('File not found');
  if (rows.length === 0) throw conflict('There are no files to ask: upload some first.');
  const searchable = rows.filter((r) => r.state === 'searchable');
  if (searchable.length === 0)
    throw conflict('None of these files is searchable yet: they are still being read.');
  return { languages: [...new Set(searchable.map((r) => r.language ?? ''))].filter(Boolean) };
}

/** The passages a question gets, in the order the prompt gives them (the bench calls this). */
export async function findSources(
  deps: AskFilesDeps,
  q: AskFilesQuery,
  budget: number,
): Promise<Source[]> {
  const { languages } = await checkAskable(deps.db, q.userId, q.fileIds);
  const { language, terms } = questionTerms(q.text, languages);
  const hits = await knowledgeRepo.search(deps.db, deps.dialect, {
    userId: q.userId,
    terms,
    fileIds: q.fileIds,
    limit: CANDIDATES,
  });
  const count = (t: string) => deps.ai.countTokens(t);
  // A language none of the files is in (a short question misread) favours none of them.
  const favoured = languages.includes(language) ? language : '';
  const fused = await withMeaning(deps, q, hits, favoured);
  const { picked, used } = fused
    ? chooseSources(fused, '', budget, count, 0)
    : chooseSources(hits, favoured, budget, count);
  if (!picked.length) return picked;
  const near = await knowledgeRepo.neighboursOf(deps.db, q.userId, neighbourPlaces(picked));
  return asExcerpts(withNeighbours(picked, near, budget, used, count));
}

/**
 * With an embeddings model, the hits fused with the ranking by meaning (by-meaning.ts); undefined
 * without one, or when it fails (then the words alone answer, as they would without it).
 */
async function withMeaning(
  deps: AskFilesDeps,
  q: AskFilesQuery,
  hits: Hit[],
  favoured: string,
): Promise<Hit[] | undefined> {
  const embedder = deps.embeddings;
  if (!embedder) return undefined;
  try {
    const query = { ...q, owner: deps.owner, signal: deps.signal };
    return await fuseWithMeaning({ ...deps, embedder }, query, hits, favoured, CANDIDATES);
  } catch (err) {
    if (deps.signal?.aborted) throw err;
    return undefined;
  }
}

/** The tokens of passages a question may have: ASK_MAX_PASSAGE_TOKENS within the context. */
export function passageBudget(deps: AiDeps, answerTokens: number): number {
  const fixed = promptTokens(deps.ai, turns('', ''));
  return Math.min(
    inputBudget(deps, { promptTokens: fixed, outputTokens: answerTokens }),
    deps.maxPassageTokens ?? defaultPassageTokens(contextOf(deps)),
  );
}

export async function askFiles(deps: AskFilesDeps, q: AskFilesQuery): Promise<AskFilesResponse> {
  requireModel(deps.ai);
  const answerTokens = clamp(Math.floor(contextOf(deps) / 4), 128, 768);
  const budget = passageBudget(deps, answerTokens) - deps.ai.countTokens(q.text);
  if (budget < 64) throw new Error('The model context is too small to answer questions');
  deps.progress?.stage('finding passages');
  const sources = await findSources(deps, q, budget);
  const context = sources
    .map((s, i) => `[${i + 1}] ${s.file_name}, ${whereOf(s.ref)}\n${s.text}`)
    .join('\n\n');
  deps.progress?.stage('answering', 1);
  // A person waits on the answer: it goes before document work, in the owner's turn.
  const answer = await complete(
    { ...deps, priority: 'interactive' },
    turns(q.text, context),
    answerTokens,
  );
  return {
    response: answer || 'The model gave no answer.',
    sources: sources.map((s) => ({
      file_id: s.file_id,
      file_name: s.file_name,
      excerpt: s.text,
      where: whereOf(s.ref),
      start: s.char_start,
      end: s.char_end,
    })),
  };
}

const turns = (question: string, context: string): ChatTurn[] => [
  { role: 'system', content: SYSTEM },
  { role: 'user', content: `Passages:\n${context}\n\nQuestion: ${question}` },
];
