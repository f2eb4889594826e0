import type { ReactNode } from 'react';
import {
  accessibilityAnalysisResponseSchema,
  seoAnalysisResponseSchema,
  type AccessibilityAnalysisResponse,
  type SeoAnalysisResponse,
} from '@inkwell/contract';
import { ApiError } from '../../lib/api-client';
import { cancelledText, conversation, startWorkStep, type WorkStep } from '../../lib/conversation';
import { followJob } from '../../lib/progress-request';
import type { RememberedJob } from '../../lib/remembered-jobs';
import { analyzeAccessibility } from './api/analyze-accessibility';
import { analyzeSeo } from './api/analyze-seo';
import { AccessibilityResult } from './components/AccessibilityResult';
import { SeoResult } from './components/SeoResult';

export type UrlAnalysisKind = 'accessibility' | 'seo';

export const ANALYSIS_MESSAGES = {
  failed: 'Failed to perform analysis due to an error.',
  noInsights: 'Analysis completed, but no detailed insights available.',
} as const;

type Outcome = { insights: string; extra: ReactNode };

const accessibilityOutcome = ({ accessibility_analysis: a }: AccessibilityAnalysisResponse) => ({
  insights: a.ai_insights,
  extra: <AccessibilityResult analysis={a} />,
});
const seoOutcome = ({ seo_analysis: a }: SeoAnalysisResponse) => ({
  insights: a.ai_insights,
  extra: <SeoResult analysis={a} />,
});

/**
 * URL analysis (spec §4): 'Analyzing {url}...' with its progress and Cancel, then the AI insights
 * as an ai message with the findings under them, or a failure message. The server runs it as a
 * job: after a reload, resumeAnalysisJob shows it again.
 */
export async function runUrlAnalysis(kind: UrlAnalysisKind, url: string): Promise<void> {
  const step = startWorkStep(`Analyzing ${url}...`, {
    feature: 'analysis',
    action: kind,
    about: { url },
  });
  await settle(url, step, async () =>
    kind === 'accessibility'
      ? accessibilityOutcome(await analyzeAccessibility(url, step))
      : seoOutcome(await analyzeSeo(url, step)),
  );
}

/** An analysis started before a reload: its step again, following the job to its end. */
export async function resumeAnalysisJob(job: RememberedJob): Promise<void> {
  const url = job.about.url ?? '';
  const step = startWorkStep(`Analyzing ${url}...`, undefined, job.id);
  await settle(url, step, async () =>
    job.action === 'accessibility'
      ? accessibilityOutcome(await followJob(job.id, accessibilityAnalysisResponseSchema, step))
      : seoOutcome(await followJob(job.id, seoAnalysisResponseSchema, step)),
  );
}

async function settle(url: string, step: WorkStep, outcome: () => Promise<Outcome>) {
  const epoch = conversation.getEpoch();
  let result: Outcome;
  try {
    result = await outcome();
  } catch (err) {
    if (epoch !== conversation.getEpoch()) return;
    // No answer from the server (the page unloads, the network dropped): the job goes on there.
    const connectionLost = !(err instanceof ApiError) || !err.status;
    step.end({ connectionLost: connectionLost && !step.signal.aborted });
    conversation.add(
      step.signal.aborted
        ? { type: 'system', text: cancelledText(`analysis of ${url}.`) }
        : { type: 'error', text: ANALYSIS_MESSAGES.failed },
    );
    return;
  }
  if (epoch !== conversation.getEpoch()) return;
  step.end();
  conversation.add({
    type: 'ai',
    text: result.insights.trim() ? result.insights : ANALYSIS_MESSAGES.noInsights,
    extra: result.extra,
  });
}
