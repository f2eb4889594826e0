import type { SiteAnalysisResponse } from '@inkwell/contract';
import { siteAnalysisResponseSchema } from '@inkwell/contract';
import { cancelledText, conversation, startWorkStep, type WorkStep } from '../../lib/conversation';
import { settleWork } from '../../lib/settle-work';
import { followJob } from '../../lib/progress-request';
import type { RememberedJob } from '../../lib/remembered-jobs';
import { analyzeSite } from './api/analyze-site';
import { SiteResult } from './components/SiteResult';
import { ANALYSIS_MESSAGES, analysisFailedText } from './analysis-messages';

const stepText = (url: string) => `Analyzing the whole site of ${url}...`;

/**
 * A whole-site analysis: a step with its progress and Cancel while the server crawls and audits
 * (a job, remembered so it comes back after a reload), then a system message and the insights
 * as an ai message with the summary (scores per page, grouped issues) under them.
 */
export async function runSiteAnalysis(url: string): Promise<void> {
  const step = startWorkStep(stepText(url), {
    feature: 'analysis',
    action: 'site',
    about: { url },
  });
  await settle(url, step, () => analyzeSite(url, step));
}

/** A site analysis started before a reload: its step again, following the job to its end. */
export async function resumeSiteJob(job: RememberedJob): Promise<void> {
  const url = job.about.url ?? '';
  const step = startWorkStep(stepText(url), undefined, job.id);
  await settle(url, step, () => followJob(job.id, siteAnalysisResponseSchema, step));
}

function settle(url: string, step: WorkStep, outcome: () => Promise<SiteAnalysisResponse>) {
  return settleWork(step, outcome, {
    cancelled: () =>
      conversation.add({
        type: 'system',
        text: cancelledText(`analysis of the whole site of ${url}.`),
      }),
    failed: (err) => conversation.add({ type: 'error', text: analysisFailedText(err) }),
    done: ({ site_analysis: analysis }) => {
      conversation.add({
        type: 'system',
        text: `Site analysis completed for ${analysis.start_url}: ${analysis.pages.length} page(s).`,
      });
      conversation.add({
        type: 'ai',
        text: analysis.ai_insights.trim() ? analysis.ai_insights : ANALYSIS_MESSAGES.noInsights,
        extra: <SiteResult analysis={analysis} />,
      });
    },
  });
}
