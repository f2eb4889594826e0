import { MODEL_UNAVAILABLE_MESSAGE, type AiStatus } from '@inkwell/contract';
import type { ModelStatus } from './language-model';

/**
 * What a user may read of why the model is not ready: the download and the load say how long to
 * wait; anything else says the operator knows. The operator's reason (paths, settings, the
 * model server's address) stays in the log and on the Admin page.
 */
export function publicReason(status: ModelStatus): string | null {
  switch (status.state) {
    case 'ready':
      return null;
    case 'downloading':
    case 'loading':
      return status.reason ?? null;
    default:
      return MODEL_UNAVAILABLE_MESSAGE;
  }
}

/** The model's status as the API shows it: the download as a percentage, no undefined fields. */
export function toAiStatus(status: ModelStatus): AiStatus {
  return {
    state: status.state,
    progress:
      status.state === 'downloading' && status.progress !== undefined
        ? Math.floor(status.progress * 100)
        : null,
    name: publicName(status.name),
    reason: publicReason(status),
    queued: status.queued ?? 0,
    last_ok_at: status.lastOkAt?.toISOString() ?? null,
  };
}

/** The provider and model without the server's address ("openai:qwen@http://10.0.0.5/v1"). */
function publicName(name: string): string {
  return name.replace(/@.*$/, '');
}
