import { conversation, endStep, startStep } from '../../lib/conversation';
import { analyzeAccessibility } from './api/analyze-accessibility';
import { analyzeSeo } from './api/analyze-seo';
import { AccessibilityResult } from './components/AccessibilityResult';
import { SeoResult } from './components/SeoResult';

/** 'site' (the whole site, auth) runs as a job with progress: run-site-analysis.tsx. */
export type UrlAnalysisKind = 'accessibility' | 'seo' | 'site';

export const ANALYSIS_MESSAGES = {
  failed: 'Failed to perform analysis due to an error.',
  noInsights: 'Analysis completed, but no detailed insights available.',
} as const;

/**
 * URL analysis (spec §4): 'Analyzing {url}...', then the AI insights as an ai message with the
 * findings under them, or a failure message.
 */
export async function runUrlAnalysis(kind: UrlAnalysisKind, url: string): Promise<void> {
  if (kind === 'site') {
    const { runSiteAnalysis } = await import('./run-site-analysis');
    return runSiteAnalysis(url);
  }
  const epoch = conversation.getEpoch();
  const step = startStep(`Analyzing ${url}...`);
  try {
    const { insights, extra } =
      kind === 'accessibility'
        ? await analyzeAccessibility(url).then(({ accessibility_analysis: a }) => ({
            insights: a.ai_insights,
            extra: <AccessibilityResult analysis={a} />,
          }))
        : await analyzeSeo(url).then(({ seo_analysis: a }) => ({
            insights: a.ai_insights,
            extra: <SeoResult analysis={a} />,
          }));
    if (epoch !== conversation.getEpoch()) return;
    endStep(step);
    conversation.add({
      type: 'ai',
      text: insights.trim() ? insights : ANALYSIS_MESSAGES.noInsights,
      extra,
    });
  } catch {
    if (epoch !== conversation.getEpoch()) return;
    endStep(step);
    conversation.add({ type: 'error', text: ANALYSIS_MESSAGES.failed });
  }
}
