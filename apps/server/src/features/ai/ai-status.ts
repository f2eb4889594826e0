import type { AiStatus } from '@inkwell/contract';
import type { ModelStatus } from './language-model';

/** The model's status as the API shows it: the download as a percentage, no undefined fields. */
export function toAiStatus(status: ModelStatus): AiStatus {
  return {
    state: status.state,
    progress:
      status.state === 'downloading' && status.progress !== undefined
        ? Math.floor(status.progress * 100)
        : null,
    name: status.name,
    reason: status.state === 'ready' ? null : (status.reason ?? null),
    queued: status.queued ?? 0,
  };
}
