import type { Metrics } from '../../plugins/metrics';
import type { ChatTurn, GenerateOptions, LanguageModel } from './language-model';

/**
 * The provider with its output counted for /metrics (pieces generated, before the scheduler
 * joins a batch call's pieces into one). Everything else passes straight through.
 */
export function instrumentModel(model: LanguageModel, metrics: Metrics): LanguageModel {
  return {
    status: () => model.status(),
    contextTokens: () => model.contextTokens(),
    countTokens: (text) => model.countTokens(text),
    whenSettled: () => model.whenSettled(),
    retryNow: () => model.retryNow?.() ?? false,
    close: () => model.close(),
    ...(model.inSlot ? { inSlot: model.inSlot.bind(model) } : {}),
    async *stream(turns: ChatTurn[], opts?: GenerateOptions) {
      for await (const piece of model.stream(turns, opts)) {
        metrics.tokensGenerated.inc();
        yield piece;
      }
    },
  };
}
