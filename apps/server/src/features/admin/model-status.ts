import type { AdminModelStatus } from '@inkwell/contract';
import type { LanguageModel } from '../ai/language-model';

/**
 * The model as the Admin page shows it. The one place that reads the model for the page: a
 * scheduler's state and queue (GET /api/ai/status) join here, with the contract's
 * `adminModelStatusSchema` extended to match.
 */
export function adminModelStatus(ai: LanguageModel): AdminModelStatus {
  const { available, name, reason } = ai.status();
  return { available, name, ...(reason ? { reason } : {}) };
}
