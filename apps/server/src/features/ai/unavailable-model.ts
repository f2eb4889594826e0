import { ModelUnavailableError, type LanguageModel, type ModelStatus } from './language-model';
import { estimateTokens } from '../../lib/token-estimate';

/** A model that is never available, saying why: used when nothing is configured or loading failed. */
export class UnavailableModel implements LanguageModel {
  constructor(
    private readonly reason: string,
    private readonly name = 'none',
  ) {}

  async whenSettled(): Promise<ModelStatus> {
    return this.status();
  }

  status(): ModelStatus {
    return { available: false, state: 'unavailable', name: this.name, reason: this.reason };
  }

  // eslint-disable-next-line require-yield
  async *stream(): AsyncGenerator<string> {
    throw new ModelUnavailableError(this.reason);
  }

  contextTokens(): number {
    return 4096;
  }

  countTokens(text: string): number {
    return estimateTokens(text);
  }

  async close(): Promise<void> {}
}
