import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { LanguageModel } from './language-model';
import { OpenAIModel } from './engine/openai/openai-model';

/**
 * Picks the provider from the configuration: `openai` when AI_BASE_URL is set, otherwise the
 * embedded `llama` model. Returns at once: the llama model loads (and downloads) in the
 * background and reports "loading" through status() meanwhile, so start-up is never blocked.
 * `capacity`: the calls the model runs at once (AI_PARALLEL, or the embedded model's sequences).
 */
export async function createLanguageModel(
  config: Config,
  log: FastifyBaseLogger,
): Promise<{ model: LanguageModel; capacity: number }> {
  if (config.AI_BASE_URL) {
    log.info(
      {
        baseUrl: config.AI_BASE_URL,
        model: config.AI_MODEL,
        contextTokens: config.AI_CONTEXT_TOKENS,
      },
      'AI: using an OpenAI-compatible server',
    );
    const model = new OpenAIModel({
      baseUrl: config.AI_BASE_URL,
      apiKey: config.AI_API_KEY,
      model: config.AI_MODEL,
      timeoutMs: config.AI_TIMEOUT_MS,
      cachePrompt: config.AI_CACHE_PROMPT,
      onHealthChange: (up, reason) =>
        up
          ? log.info('AI: the model server answers again')
          : log.error(
              `AI: the model server is unreachable: ${reason}; checking again with backoff`,
            ),
      contextTokens: config.AI_CONTEXT_TOKENS,
    });
    model.start();
    return { model, capacity: config.AI_PARALLEL };
  }
  // Imported lazily: node-llama-cpp's native binding is only loaded when it is the provider.
  const { LlamaModelProvider, tuningFromConfig } = await import('./engine/llama/llama-model');
  const model = new LlamaModelProvider(config, log, tuningFromConfig(config));
  model.start();
  // The sequences are decided from the model file and memory before loading (quickly).
  return { model, capacity: await model.plannedSequences() };
}
