import {
  generate,
  type ChatTurn,
  type LanguageModel,
  type PlannedCalls,
  type WorkHandle,
} from '../ai';
import { estimateTokens } from '../../lib/token-estimate';

/**
 * Advice written by the language model from the findings only. The raw page never reaches the
 * prompt: it is untrusted text that could carry instructions, and far longer than the findings.
 */
export const INSIGHTS_MAX_TOKENS = 600;
const INSIGHTS_TIMEOUT_MS = 60_000;

export type InsightsKind = 'accessibility' | 'seo' | 'site';

const SYSTEM: Record<InsightsKind, string> = {
  accessibility:
    'You are a web accessibility expert (WCAG 2.2). From the automated axe-core findings below, ' +
    'write prioritised, concrete advice: most severe and most widespread issues first, each with ' +
    'what to change in the HTML, as a short numbered list. Mention rules that were not checked ' +
    'and need a manual or browser check. Do not invent problems that are not in the findings.',
  seo:
    'You are a technical SEO expert. From the audit findings below, write prioritised, concrete ' +
    'advice: failures that block indexing first, then those affecting ranking and click-through, ' +
    'each with the exact change to make, as a short numbered list. Do not invent problems that ' +
    'are not in the findings.',
  site:
    'You are a web accessibility (WCAG 2.2) and technical SEO expert. From the findings of a ' +
    'whole site below (scores per page, issues with the number of pages that have them), write ' +
    'prioritised, concrete advice: issues on many pages first (usually one shared template to ' +
    'fix), then severe ones on few pages, each with what to change, as a short numbered list. ' +
    'Do not invent problems that are not in the findings.',
};

/** Text sent to the model: a compact summary of the findings, capped so it fits any context. */
export function findingsPrompt(
  url: string,
  score: number,
  lines: string[],
  maxChars = 6000,
): string {
  let text = `Page: ${url}\nScore: ${score}/100\nFindings:\n`;
  for (const line of lines) {
    if (text.length + line.length > maxChars) {
      text += '- (further findings omitted)\n';
      break;
    }
    text += `- ${line}\n`;
  }
  return text;
}

/** The one model call that writes insights from these findings, for a work's time left. */
export function insightsCall(kind: InsightsKind, findings: string): PlannedCalls {
  return {
    count: 1,
    promptTokens: estimateTokens(SYSTEM[kind]) + estimateTokens(findings),
    maxTokens: INSIGHTS_MAX_TOKENS,
  };
}

export async function writeInsights(
  model: LanguageModel,
  kind: InsightsKind,
  findings: string,
  signal?: AbortSignal,
  work?: WorkHandle,
  /** The user id, or `ip:<address>` of an anonymous analysis: owners take turns at the model. */
  owner?: string,
): Promise<string> {
  const status = model.status();
  // A model still loading is waited for (the scheduler's AI_LOAD_WAIT_MS), not given up on.
  if (!status.available && status.state !== 'loading') return unavailable(status.reason);
  const turns: ChatTurn[] = [
    { role: 'system', content: SYSTEM[kind] },
    { role: 'user', content: findings },
  ];
  const timeout = AbortSignal.timeout(INSIGHTS_TIMEOUT_MS);
  try {
    const text = await generate(model, turns, {
      maxTokens: INSIGHTS_MAX_TOKENS,
      temperature: 0.2,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      work,
      owner,
      // Batch: the advice is read whole, as part of the analysis's result; nobody waits token by
      // token, and a chat should not wait for it.
      priority: 'batch',
    });
    return text.trim() || 'Analysis completed, but no detailed insights available.';
  } catch (err) {
    // The audits stand on their own: a model failure must not cost the user the findings.
    return unavailable((err as Error).message);
  }
}

function unavailable(reason?: string): string {
  return (
    'AI insights are unavailable: no language model is available' +
    (reason ? ` (${reason.replace(/^No language model is available: /, '')})` : '') +
    '. Set MODEL_PATH to a GGUF model file, or AI_BASE_URL to an OpenAI-compatible server, to ' +
    'get prioritised advice. The audit results above are complete without it.'
  );
}
