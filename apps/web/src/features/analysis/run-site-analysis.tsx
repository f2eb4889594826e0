import type { Job, SiteAnalysisResponse } from '@inkwell/contract';
import { siteAnalysisResponseSchema } from '@inkwell/contract';
import { cancelledText, startWorkStep } from '../../lib/conversation';
import { replayJob, type JobReplay } from '../../lib/job-replay';
import { settleWork, type WorkOutcomeMessages } from '../../lib/settle-work';
import { analyzeSite } from './api/analyze-site';
import { SiteResult } from './components/SiteResult';
import { ANALYSIS_MESSAGES, analysisFailedText } from './analysis-messages';

const stepText = (url: string) => `Analyzing the whole site of ${url}...`;

/**
 * A whole-site analysis: a step with its progress and Cancel while the server crawls and audits
 * (a job, shown again after a reload), then a system message and the insights as an ai message
 * with the summary (scores per page, grouped issues) under them.
 */
export async function runSiteAnalysis(url: string): Promise<void> {
  const step = startWorkStep(stepText(url));
  await settleWork(step, () => analyzeSite(url, step), outcomeMessages(url));
}

/** A site analysis's job shown again (after a reload, on another device). */
export function replaySiteJob(job: Job): JobReplay | null {
  if (job.kind !== 'site') return null;
  const url = job.about.url ?? '';
  return replayJob(job, {
    stepText: stepText(url),
    schema: siteAnalysisResponseSchema,
    toOutcome: (r) => r,
    messages: outcomeMessages(url),
  });
}

function outcomeMessages(url: string): WorkOutcomeMessages<SiteAnalysisResponse> {
  return {
    cancelled: () => [
      { type: 'system', text: cancelledText(`analysis of the whole site of ${url}.`) },
    ],
    failed: (err) => [{ type: 'error', text: analysisFailedText(err) }],
    // Nothing audited (robots.txt, no page answering): the reason, and what was fetched.
    done: ({ site_analysis: analysis }) =>
      analysis.notice
        ? [
            {
              type: 'system',
              text: `Site analysis of ${analysis.start_url}: ${analysis.notice}.`,
              extra: <SiteResult analysis={analysis} />,
            },
          ]
        : [
            {
              type: 'system',
              text: `Site analysis completed for ${analysis.start_url}: ${analysis.pages.length} page(s) audited.`,
            },
            {
              type: 'ai',
              text: analysis.ai_insights.trim()
                ? analysis.ai_insights
                : ANALYSIS_MESSAGES.noInsights,
              extra: <SiteResult analysis={analysis} />,
            },
          ],
  };
}
