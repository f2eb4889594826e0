import type { AiStatus } from '@inkwell/contract';

/** File actions that only a language model can do (proofread and sentiment work without one). */
export const MODEL_ACTIONS = ['summarize', 'askQuestions', 'translate'] as const;

/**
 * Why the model cannot take work now, or null when it can. A model still loading is waited for
 * by the calls themselves, so only "downloading" and "unavailable" disable the actions.
 */
export function modelUnavailableReason(status: AiStatus | undefined): string | null {
  if (!status) return null;
  if (status.state === 'downloading') {
    return `Needs the language model, still downloading${status.progress === null ? '' : ` (${Math.round(status.progress)}%)`}.`;
  }
  if (status.state === 'unavailable') return 'Needs a language model; none is available now.';
  return null;
}

/** The menu's disabled entries with their reason. */
export function unavailableModelActions(status: AiStatus | undefined) {
  const reason = modelUnavailableReason(status);
  return reason ? Object.fromEntries(MODEL_ACTIONS.map((a) => [a, reason])) : {};
}
