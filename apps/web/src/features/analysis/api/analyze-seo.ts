import { seoAnalysisResponseSchema, type SeoAnalysisResponse } from '@inkwell/contract';
import { requestWithProgress, type ProgressOptions } from '../../../lib/progress-request';

/**
 * POST /api/seo-analysis (form `url`), with its progress. Signed in, the token goes with it, so
 * the analysis is the person's (GET /api/jobs, after a reload, on another device); an anonymous
 * visitor's has no owner.
 */
export function analyzeSeo(url: string, progress: ProgressOptions): Promise<SeoAnalysisResponse> {
  return requestWithProgress(
    'seo-analysis',
    {
      method: 'POST',
      body: new URLSearchParams({ url }),
      schema: seoAnalysisResponseSchema,
    },
    progress,
  );
}
