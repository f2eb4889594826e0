import type { AdminModelStatus } from '@inkwell/contract';
import { toAiStatus } from '../ai/ai-status';
import type { LanguageModel } from '../ai/language-model';

/** The model as the Admin page shows it: GET /api/ai/status's view, and whether it serves now. */
export function adminModelStatus(ai: LanguageModel): AdminModelStatus {
  const status = ai.status();
  return { ...toAiStatus(status), available: status.available };
}
