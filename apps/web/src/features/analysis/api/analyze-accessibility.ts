import {
  accessibilityAnalysisResponseSchema,
  type AccessibilityAnalysisResponse,
} from '@inkwell/contract';
import { requestWithProgress, type ProgressOptions } from '../../../lib/progress-request';

/** POST /api/accessibility-analysis (form `url`, no token, spec §6), with its progress. */
export function analyzeAccessibility(
  url: string,
  progress: ProgressOptions,
): Promise<AccessibilityAnalysisResponse> {
  return requestWithProgress(
    'accessibility-analysis',
    {
      method: 'POST',
      auth: false,
      body: new URLSearchParams({ url }),
      schema: accessibilityAnalysisResponseSchema,
    },
    progress,
  );
}
