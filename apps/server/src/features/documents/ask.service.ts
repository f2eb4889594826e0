import type { ChatTurn } from '../ai';
import {
  clamp,
  complete,
  contextOf,
  inputBudget,
  promptTokens,
  requireModel,
  type AiDeps,
} from './model-calls';
import type { TextUnit } from '../files';
import { choosePassages, joinAdjacent } from './retrieval/choose-passages';
import { inTurn } from './retrieval/embeddings';
import type { Candidate } from './retrieval/passage-index';
import {
  ensureVectors,
  searchSource,
  unitsSource,
  type PassageSearch,
  type PassageSource,
} from './retrieval/passage-pool';

/**
 * Questions about a document: its passages are ranked against the question with BM25 in the
 * document's language (retrieval/), and the prompt gets the best of them, only as many as the
 * question needs within the passage budget, each tagged with where it comes from so the answer
 * can cite it.
 */
const SYSTEM =
  'You answer questions about a document using only the passages given. After each fact, cite ' +
  'the passage reference in square brackets, e.g. [Page 3]. If the passages do not contain the ' +
  'answer, say that the document does not say.';

/** The least time between two partial answers sent on (each one reaches every follower). */
const PARTIAL_GAP_MS = 100;

/** Ranked passages looked at per question: far more than any budget takes. */
const CANDIDATES = 64;

export interface AskResult {
  response: string;
  /** References of the passages the model was given, in document order. */
  refs: string[];
}

/**
 * Tokens of passages a question gets when ASK_MAX_PASSAGE_TOKENS is not set: a quarter of the
 * model's context (1,024 on the embedded engine's 4,096; 2,048 on a server's 8,192), at least
 * 512 and at most 4,096. Measured on XQuAD (bench/ask.bench.ts), 1,024 tokens bring the answer
 * for at least 95 % of the questions in each of its 12 languages.
 */
export const defaultPassageTokens = (contextTokens: number) =>
  clamp(Math.floor(contextTokens / 4), 512, 4096);

export async function askDocument(
  deps: AiDeps,
  document: PassageSource | TextUnit[] | PassageSearch,
  question: string,
): Promise<AskResult> {
  requireModel(deps.ai);
  const answerTokens = clamp(Math.floor(contextOf(deps) / 4), 128, 768);
  const fixed = promptTokens(deps.ai, turns(question, ''));
  const budget = Math.min(
    inputBudget(deps, { promptTokens: fixed, outputTokens: answerTokens }),
    deps.maxPassageTokens ?? defaultPassageTokens(contextOf(deps)),
  );
  if (budget < 64) throw new Error('The model context is too small to answer questions');
  deps.progress?.stage('finding passages');
  const found =
    typeof document === 'function'
      ? await document(question, CANDIDATES)
      : await hybridSearch(
          deps,
          Array.isArray(document) ? unitsSource(document) : document,
          question,
        );
  const count = (t: string) => deps.ai.countTokens(t);
  const chosen = choosePassages(found.ranked, found.neighbours, budget, count);
  const context = joinAdjacent(chosen)
    .map((c) => `[${c.ref}]\n${c.text}`)
    .join('\n\n');
  deps.progress?.stage('answering', 1);
  // A person waits on the answer: it goes before document work, and streams to them as a
  // partial result (jobs/job-stream.ts sends each new one), a few times a second at most.
  let shownAt = 0;
  const answer = await complete(
    { ...deps, priority: 'interactive' },
    turns(question, context),
    answerTokens,
    (soFar) => {
      if (!deps.progress || Date.now() - shownAt < PARTIAL_GAP_MS) return;
      shownAt = Date.now();
      deps.progress.partial({ response: soFar });
    },
  );
  const refs = chosen.map((c: Candidate) => c.ref);
  return { response: withSources(answer, refs), refs };
}

/**
 * BM25 alone, or, with an embeddings model (AI_EMBEDDINGS_MODEL), BM25 and vector similarity
 * fused by reciprocal rank (retrieval/rank-fusion.ts). An uploaded file's vectors are computed on
 * its first question and kept with its index (a stored file's come from the search index,
 * knowledge/stored-file-source.ts). When the embeddings model fails, BM25 answers alone.
 */
async function hybridSearch(deps: AiDeps, source: PassageSource, question: string) {
  const bm25 = await searchSource(source, question, CANDIDATES, undefined, deps.signal);
  if (!deps.embeddings) return bm25;
  // Through the model's scheduler: the passages as the owner's document work, the question in
  // the person's turn.
  const embedder = inTurn(deps.embeddings, deps.ai, { priority: 'batch', owner: deps.owner });
  const asked = inTurn(deps.embeddings, deps.ai, { priority: 'interactive', owner: deps.owner });
  try {
    await ensureVectors(source, embedder, deps.progress, deps.signal);
    const [vector] = await asked.embed([question], deps.signal);
    if (!vector) return bm25;
    const query = { model: embedder.model, vector };
    return await searchSource(source, question, CANDIDATES, query, deps.signal);
  } catch (err) {
    if (deps.signal?.aborted) throw err;
    return bm25;
  }
}

/** The answer always names its sources: appended when the model cited none of them. */
export function withSources(answer: string, refs: string[]): string {
  const text = answer || 'The model gave no answer.';
  if (refs.length === 0 || refs.some((r) => text.includes(r))) return text;
  const unique = [...new Set(refs)];
  const shown = unique.slice(0, 8).join('; ') + (unique.length > 8 ? '; …' : '');
  return `${text}\n\nSources: ${shown}`;
}

const turns = (question: string, context: string): ChatTurn[] => [
  { role: 'system', content: SYSTEM },
  { role: 'user', content: `Passages:\n${context}\n\nQuestion: ${question}` },
];
