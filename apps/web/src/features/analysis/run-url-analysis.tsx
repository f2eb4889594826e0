import type { ReactNode } from 'react';
import {
  accessibilityAnalysisResponseSchema,
  seoAnalysisResponseSchema,
  type AccessibilityAnalysisResponse,
  type Job,
  type SeoAnalysisResponse,
} from '@inkwell/contract';
import { cancelledText, startWorkStep } from '../../lib/conversation';
import { replayJob, type JobReplay } from '../../lib/job-replay';
import { settleWork, type WorkOutcomeMessages } from '../../lib/settle-work';
import { analyzeAccessibility } from './api/analyze-accessibility';
import { analyzeSeo } from './api/analyze-seo';
import { AccessibilityResult } from './components/AccessibilityResult';
import { SeoResult } from './components/SeoResult';
import { ANALYSIS_MESSAGES, analysisFailedText } from './analysis-messages';

type Outcome = { insights: string; extra: ReactNode };

const accessibilityOutcome = ({ accessibility_analysis: a }: AccessibilityAnalysisResponse) => ({
  insights: a.ai_insights,
  extra: <AccessibilityResult analysis={a} />,
});
const seoOutcome = ({ seo_analysis: a }: SeoAnalysisResponse) => ({
  insights: a.ai_insights,
  extra: <SeoResult analysis={a} />,
});
const stepText = (url: string) => `Analyzing ${url}...`;

/**
 * URL analysis (spec §4): 'Analyzing {url}...' with its progress and Cancel, then the AI insights
 * as an ai message with the findings under them, or a failure message. The server runs it as a
 * job: after a reload, replayAnalysisJob shows it again.
 */
export async function runUrlAnalysis(kind: 'accessibility' | 'seo', url: string): Promise<void> {
  const step = startWorkStep(stepText(url));
  await settleWork(
    step,
    async () =>
      kind === 'accessibility'
        ? accessibilityOutcome(await analyzeAccessibility(url, step))
        : seoOutcome(await analyzeSeo(url, step)),
    outcomeMessages(url),
  );
}

/** A page analysis's job shown again (after a reload, on another device). */
export function replayAnalysisJob(job: Job): JobReplay | null {
  const url = job.about.url ?? '';
  const common = { stepText: stepText(url), messages: outcomeMessages(url) };
  if (job.kind === 'accessibility') {
    return replayJob(job, {
      ...common,
      schema: accessibilityAnalysisResponseSchema,
      toOutcome: accessibilityOutcome,
    });
  }
  if (job.kind === 'seo') {
    return replayJob(job, { ...common, schema: seoAnalysisResponseSchema, toOutcome: seoOutcome });
  }
  return null;
}

function outcomeMessages(url: string): WorkOutcomeMessages<Outcome> {
  return {
    cancelled: () => [{ type: 'system', text: cancelledText(`analysis of ${url}.`) }],
    failed: (err) => [{ type: 'error', text: analysisFailedText(err) }],
    done: (result) => [
      {
        type: 'ai',
        text: result.insights.trim() ? result.insights : ANALYSIS_MESSAGES.noInsights,
        extra: result.extra,
      },
    ],
  };
}
