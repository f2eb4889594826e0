import { seoAnalysisResponseSchema, type SeoAnalysisResponse } from '@inkwell/contract';
import { requestWithProgress, type ProgressOptions } from '../../../lib/progress-request';

/** POST /api/seo-analysis (form `url`, no token, spec §6), with its progress. */
export function analyzeSeo(url: string, progress: ProgressOptions): Promise<SeoAnalysisResponse> {
  return requestWithProgress(
    'seo-analysis',
    {
      method: 'POST',
      auth: false,
      body: new URLSearchParams({ url }),
      schema: seoAnalysisResponseSchema,
    },
    progress,
  );
}
