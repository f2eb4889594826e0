import type { ChatTurn } from '../ai/language-model';
import { bm25Rank } from './bm25';
import { chunkDocument, type Chunk } from './chunking';
import {
  clamp,
  complete,
  contextOf,
  inputBudget,
  promptTokens,
  requireModel,
  type AiDeps,
} from './model-calls';
import type { TextUnit } from './reader';

/**
 * Questions about a document: the document is cut into small passages, ranked against the
 * question with BM25, and only the best passages that fit the context go to the model, each
 * tagged with where it comes from so the answer can cite it.
 */
const SYSTEM =
  'You answer questions about a document using only the passages given. After each fact, cite ' +
  'the passage reference in square brackets, e.g. [Page 3]. If the passages do not contain the ' +
  'answer, say that the document does not say.';

export interface AskResult {
  response: string;
  /** References of the passages the model was given, in document order. */
  refs: string[];
}

export async function askDocument(
  deps: AiDeps,
  units: TextUnit[],
  question: string,
): Promise<AskResult> {
  requireModel(deps.ai);
  const answerTokens = clamp(Math.floor(contextOf(deps) / 4), 128, 768);
  const fixed = promptTokens(deps.ai, turns(question, ''));
  const budget = inputBudget(deps, { promptTokens: fixed, outputTokens: answerTokens });
  if (budget < 64) throw new Error('The model context is too small to answer questions');
  const count = (t: string) => deps.ai.countTokens(t);
  // Small passages rank precisely; several of them fill the budget.
  const passages = chunkDocument(units, clamp(Math.floor(budget / 4), 48, 400), count, {
    oneLabel: true,
  });
  const chosen = selectPassages(passages, question, budget);
  const context = chosen.map((c) => `[${c.ref}]\n${c.text}`).join('\n\n');
  deps.progress?.stage('answering', 1);
  // A person waits on the answer: it goes before document work.
  const answer = await complete(
    { ...deps, priority: 'interactive' },
    turns(question, context),
    answerTokens,
  );
  const refs = chosen.map((c) => c.ref);
  return { response: withSources(answer, refs), refs };
}

/** Best-ranked passages that fit the budget, given back in document order. */
export function selectPassages(passages: Chunk[], question: string, budget: number): Chunk[] {
  const ranked = bm25Rank(
    passages.map((p) => p.text),
    question,
  );
  // Passages sharing no word with the question go only when nothing matches at all.
  const anyMatch = ranked.some((r) => r.score > 0);
  const picked: number[] = [];
  let used = 0;
  for (const { index, score } of ranked) {
    if (anyMatch && score <= 0) break;
    const cost = passages[index]!.tokens + 8;
    if (used + cost > budget) continue;
    picked.push(index);
    used += cost;
  }
  return picked.sort((a, b) => a - b).map((i) => passages[i]!);
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
