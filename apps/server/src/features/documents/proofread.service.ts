import type { EnglishDialect, ProofreadIssue, ProofreadResponse } from '@inkwell/contract';
import type { ChatTurn } from '../ai/language-model';
import { splitOversized } from './chunking';
import {
  clamp,
  completeIfAvailable,
  contextOf,
  inputBudget,
  modelAvailable,
  promptTokens,
  type AiDeps,
} from './model-calls';
import { lintInWorker } from './proofread/harper-pool';

/**
 * Proofreading: Harper finds the issues (offline, deterministic), its first suggestions give the
 * corrected text, and the model, when there is one, only writes `response`: a short explanation
 * of the main problems, or what the user asked for in `text` (e.g. "make it more formal").
 * Long documents are checked up to PROOFREAD_MAX_CHARS (Harper takes ~2 s per 100 000 characters,
 * in a worker thread). The English checked against is the user's setting, or the text's own
 * (proofread/english-dialect.ts): a British text gets no American corrections.
 */
export const PROOFREAD_MAX_CHARS = 100_000;
const MAX_ISSUES = 2000;

const SYSTEM =
  'You are a helpful editor. You are given a text and the issues a grammar checker found in it.';

export async function proofread(
  deps: AiDeps,
  documentText: string,
  instruction?: string,
  dialect?: EnglishDialect,
): Promise<ProofreadResponse> {
  const truncated = documentText.length > PROOFREAD_MAX_CHARS;
  const text = truncated ? documentText.slice(0, PROOFREAD_MAX_CHARS) : documentText;
  deps.progress?.stage('checking', modelAvailable(deps.ai) ? 1 : 0);
  const findings = await lintInWorker(text, dialect);
  const issues: ProofreadIssue[] = findings.slice(0, MAX_ISSUES).map((f) => ({
    message: f.message,
    offset: f.start,
    length: f.end - f.start,
    suggestions: f.suggestions,
    rule: f.rule,
  }));
  const corrected_text = applyFirstSuggestions(text, issues);
  const response = await explain(deps, corrected_text, issues, instruction?.trim() || undefined);
  if (response === null) {
    return {
      response: plainSummary(issues, truncated),
      issues,
      corrected_text,
      truncated,
      ai: false,
    };
  }
  return { response, issues, corrected_text, truncated, ai: true };
}

/** Applies every issue's first suggestion, from the end so earlier offsets stay valid; overlaps are skipped. */
export function applyFirstSuggestions(text: string, issues: ProofreadIssue[]): string {
  const sorted = issues
    .filter((i) => i.suggestions.length > 0)
    .sort((a, b) => b.offset - a.offset || b.length - a.length);
  // Joined once at the end: splicing each fix into the whole text would copy it per issue
  // (thousands of times 100,000 characters, on the event loop).
  const parts: string[] = [];
  let limit = Infinity;
  for (const i of sorted) {
    if (i.offset + i.length > limit) continue;
    parts.push(text.slice(i.offset + i.length, limit), i.suggestions[0]!);
    limit = i.offset;
  }
  parts.push(text.slice(0, limit));
  return parts.reverse().join('');
}

function plainSummary(issues: ProofreadIssue[], truncated: boolean): string {
  const scope = truncated
    ? `the first ${PROOFREAD_MAX_CHARS.toLocaleString('en')} characters`
    : 'the text';
  if (issues.length === 0) {
    return `Automatic check (Harper, no AI model available): no issues found in ${scope}.`;
  }
  const byRule = new Map<string, number>();
  for (const i of issues) byRule.set(i.rule, (byRule.get(i.rule) ?? 0) + 1);
  const parts = [...byRule].sort((a, b) => b[1] - a[1]).map(([r, n]) => `${n} ${r.toLowerCase()}`);
  return (
    `Automatic check (Harper, no AI model available): ${issues.length} possible ` +
    `issue${issues.length === 1 ? '' : 's'} in ${scope} (${parts.join(', ')}). ` +
    'The corrected text applies the first suggestion for each.'
  );
}

async function explain(
  deps: AiDeps,
  corrected: string,
  issues: ProofreadIssue[],
  instruction: string | undefined,
): Promise<string | null> {
  if (!modelAvailable(deps.ai)) return null;
  const outputTokens = clamp(Math.floor(contextOf(deps) / 4), 128, 1024);
  const task = instruction
    ? `The user asks: ${instruction}\nDo only what is asked, on the corrected text below.`
    : 'Explain briefly, in a few bullet points, the main kinds of mistakes and how they were fixed.';
  const list = issues
    .slice(0, 30)
    .map((i) => `- ${i.rule}: ${i.message} (${i.suggestions[0] ?? 'no suggestion'})`)
    .join('\n');
  const head = `${task}\n\nIssues found (${issues.length}):\n${list || '- none'}\n\nCorrected text:\n`;
  const turns = (body: string): ChatTurn[] => [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: head + body },
  ];
  const budget = inputBudget(deps, {
    promptTokens: promptTokens(deps.ai, turns('')),
    outputTokens,
  });
  const count = (t: string) => deps.ai.countTokens(t);
  // The model sees as much of the corrected text as fits; the issues list always goes.
  const body = budget > 32 ? (splitOversized(corrected, budget, count)[0] ?? '') : '';
  deps.progress?.stage('writing notes');
  return completeIfAvailable(deps, turns(body), outputTokens);
}
