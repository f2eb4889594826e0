import {
  accessibilityAnalysisResponseSchema,
  type AccessibilityAnalysisResponse,
} from '@inkwell/contract';
import { requestWithProgress, type ProgressOptions } from '../../../lib/progress-request';

/**
 * POST /api/accessibility-analysis (form `url`), with its progress. Signed in, the token goes with it, so
 * the analysis is the person's (GET /api/jobs, after a reload, on another device); an anonymous
 * visitor's has no owner.
 */
export function analyzeAccessibility(
  url: string,
  progress: ProgressOptions,
): Promise<AccessibilityAnalysisResponse> {
  return requestWithProgress(
    'accessibility-analysis',
    {
      method: 'POST',
      body: new URLSearchParams({ url }),
      schema: accessibilityAnalysisResponseSchema,
    },
    progress,
  );
}
