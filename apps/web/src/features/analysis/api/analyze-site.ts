import { siteAnalysisResponseSchema, type SiteAnalysisResponse } from '@inkwell/contract';
import { requestWithProgress, type ProgressOptions } from '../../../lib/progress-request';

/** POST /api/site-analysis (form `url`, token): a crawl of the site as a job, with its progress. */
export function analyzeSite(url: string, progress: ProgressOptions): Promise<SiteAnalysisResponse> {
  return requestWithProgress(
    'site-analysis',
    {
      method: 'POST',
      body: new URLSearchParams({ url }),
      schema: siteAnalysisResponseSchema,
    },
    progress,
  );
}
