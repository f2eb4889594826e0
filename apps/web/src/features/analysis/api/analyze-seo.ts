import { seoAnalysisResponseSchema, type SeoAnalysisResponse } from '@inkwell/contract';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/seo-analysis (form `url`, no token, spec §6). */
export function analyzeSeo(url: string): Promise<SeoAnalysisResponse> {
  return apiRequest('seo-analysis', {
    method: 'POST',
    auth: false,
    body: new URLSearchParams({ url }),
    schema: seoAnalysisResponseSchema,
  });
}
