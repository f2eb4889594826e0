import type { EnglishDialect, ProofreadIssue, ProofreadResponse } from '@inkwell/contract';
import type { ChatTurn } from '../ai';
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
import { proofreadInWorker } from './proofread/harper-pool';

/**
 * Proofreading: Harper finds the issues (offline, deterministic) and the corrected text applies
 * only the safe corrections (proofread/safe-corrections.ts: never a name, an acronym, a word in
 * capitals, a word of the user's dictionary or of another language). The findings are out before
 * any model call (`progress.partial`, streamed as a `partial` event); the model, when there is
 * one, then only writes `response`: a short explanation of the main problems, or what the user
 * asked for in `text` (e.g. "make it more formal"). Long documents are checked up to
 * PROOFREAD_MAX_CHARS (Harper takes ~2 s per 100 000 characters, in a worker thread). The English
 * checked against is the user's setting, or the text's own (proofread/english-dialect.ts): a
 * British text gets no American corrections.
 */
export const PROOFREAD_MAX_CHARS = 100_000;

export interface ProofreadOptions {
  instruction?: string;
  dialect?: EnglishDialect;
  /** The user's personal dictionary. */
  words?: string[];
}

const SYSTEM =
  'You are a helpful editor. You are given a text and the issues a grammar checker found in it.';

export async function proofread(
  deps: AiDeps,
  documentText: string,
  options: ProofreadOptions = {},
): Promise<ProofreadResponse> {
  const truncated = documentText.length > PROOFREAD_MAX_CHARS;
  const text = truncated ? documentText.slice(0, PROOFREAD_MAX_CHARS) : documentText;
  const withModel = modelAvailable(deps.ai);
  deps.progress?.stage('checking', withModel ? 1 : 0);
  const { issues, corrected } = await proofreadInWorker(
    text,
    options.dialect,
    options.words,
    deps.signal,
  );
  const findings: ProofreadResponse = {
    response: plainSummary(issues, truncated, withModel),
    issues,
    corrected_text: corrected,
    truncated,
    ai: false,
  };
  // The findings need no model: whoever follows the work has them now, notes or not.
  deps.progress?.partial(findings);
  const instruction = options.instruction?.trim() || undefined;
  const response = withModel ? await explain(deps, corrected, issues, instruction) : null;
  return response === null ? findings : { ...findings, response, ai: true };
}

function plainSummary(issues: ProofreadIssue[], truncated: boolean, withModel: boolean): string {
  const who = withModel
    ? 'Automatic check (Harper)'
    : 'Automatic check (Harper, no AI model available)';
  const scope = truncated
    ? `the first ${PROOFREAD_MAX_CHARS.toLocaleString('en')} characters`
    : 'the text';
  if (issues.length === 0) return `${who}: no issues found in ${scope}.`;
  const byRule = new Map<string, number>();
  for (const i of issues) byRule.set(i.rule, (byRule.get(i.rule) ?? 0) + 1);
  const parts = [...byRule].sort((a, b) => b[1] - a[1]).map(([r, n]) => `${n} ${r.toLowerCase()}`);
  const applied = issues.filter((i) => i.correction !== undefined).length;
  const kept = issues.filter((i) => i.kept && i.kept !== 'no-suggestion' && i.kept !== 'overlap');
  return (
    `${who}: ${issues.length} possible issue${issues.length === 1 ? '' : 's'} in ${scope} ` +
    `(${parts.join(', ')}). The corrected text applies ${applied} safe ` +
    `correction${applied === 1 ? '' : 's'}` +
    (kept.length > 0
      ? `; ${kept.length} flagged word${kept.length === 1 ? ' is' : 's are'} kept as written ` +
        '(names, acronyms, words in capitals or in another language, your dictionary).'
      : '.')
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
    .map((i) => `- ${i.rule}: ${i.message} (${i.correction ?? `kept as written: ${i.kept}`})`)
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
