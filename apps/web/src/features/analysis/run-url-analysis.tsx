import type { ReactNode } from 'react';
import {
  accessibilityAnalysisResponseSchema,
  seoAnalysisResponseSchema,
  type AccessibilityAnalysisResponse,
  type SeoAnalysisResponse,
} from '@inkwell/contract';
import { cancelledText, conversation, startWorkStep, type WorkStep } from '../../lib/conversation';
import { followJob } from '../../lib/progress-request';
import type { RememberedJob } from '../../lib/remembered-jobs';
import { settleWork } from '../../lib/settle-work';
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

/**
 * URL analysis (spec §4): 'Analyzing {url}...' with its progress and Cancel, then the AI insights
 * as an ai message with the findings under them, or a failure message. The server runs it as a
 * job: after a reload, resumeAnalysisJob shows it again.
 */
export async function runUrlAnalysis(kind: 'accessibility' | 'seo', url: string): Promise<void> {
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

function settle(url: string, step: WorkStep, outcome: () => Promise<Outcome>) {
  return settleWork(step, outcome, {
    cancelled: () =>
      conversation.add({ type: 'system', text: cancelledText(`analysis of ${url}.`) }),
    failed: (err) => conversation.add({ type: 'error', text: analysisFailedText(err) }),
    done: (result) =>
      conversation.add({
        type: 'ai',
        text: result.insights.trim() ? result.insights : ANALYSIS_MESSAGES.noInsights,
        extra: result.extra,
      }),
  });
}
