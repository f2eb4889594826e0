import {
  accessibilityAnalysisResponseSchema,
  type AccessibilityAnalysisResponse,
} from '@inkwell/contract';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/accessibility-analysis (form `url`, no token, spec §6). */
export function analyzeAccessibility(url: string): Promise<AccessibilityAnalysisResponse> {
  return apiRequest('accessibility-analysis', {
    method: 'POST',
    auth: false,
    body: new URLSearchParams({ url }),
    schema: accessibilityAnalysisResponseSchema,
  });
}
