import type { Metrics } from '../../plugins/metrics';
import type { ChatTurn, GenerateOptions, LanguageModel } from './language-model';

/**
 * The shared model with its work counted for /metrics: generations in flight (waiting for or
 * holding the model) and pieces generated. Everything else passes straight through.
 */
export function instrumentModel(model: LanguageModel, metrics: Metrics): LanguageModel {
  return {
    status: () => model.status(),
    contextTokens: () => model.contextTokens(),
    countTokens: (text) => model.countTokens(text),
    whenSettled: () => model.whenSettled(),
    close: () => model.close(),
    async *stream(turns: ChatTurn[], opts?: GenerateOptions) {
      metrics.modelQueue.inc();
      try {
        for await (const piece of model.stream(turns, opts)) {
          metrics.tokensGenerated.inc();
          yield piece;
        }
      } finally {
        metrics.modelQueue.dec();
      }
    },
  };
}
