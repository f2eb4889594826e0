import type { AdminModelStatus } from '@inkwell/contract';
import { toAiStatus, type LanguageModel } from '../ai';

/**
 * The model as the Admin page shows it: GET /api/ai/status's view, whether it serves now, and
 * for the operator the full reason (the path, setting or address to fix) and the next retry.
 */
export function adminModelStatus(ai: LanguageModel): AdminModelStatus {
  const status = ai.status();
  return {
    ...toAiStatus(status),
    name: status.name,
    available: status.available,
    detail: status.state === 'ready' ? null : (status.reason ?? null),
    next_retry_at: status.nextRetryAt?.toISOString() ?? null,
  };
}
