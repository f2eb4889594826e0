import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import type {
  ChatHistoryItem,
  CustomBatchingPrioritizationStrategy,
  LlamaContextSequence,
} from 'node-llama-cpp';
import { LlamaModelProvider } from './llama-model';
import { contextOptions, defaultThreads, llamaOptions, type LlamaTuning } from './llama-tuning';
import { ensureTinyGguf } from './tiny-gguf';

/**
 * node-llama-cpp itself with the tiny GGUF, for tests of the pieces the provider builds on: a
 * context of `sequences` sequences and an `ask` that runs one generation on one of them.
 */
export async function openTinyLlama(opts: {
  sequences: number;
  contextSize: number;
  itemPrioritizationStrategy?: CustomBatchingPrioritizationStrategy;
}) {
  const tuning: LlamaTuning = {
    gpu: false,
    sequences: opts.sequences,
    contextSize: opts.contextSize,
    threads: defaultThreads(availableParallelism()),
  };
  const nlc = await import('node-llama-cpp');
  const llama = await nlc.getLlama({ ...llamaOptions(tuning), logLevel: nlc.LlamaLogLevel.error });
  const model = await llama.loadModel({ modelPath: ensureTinyGguf() });
  const context = await model.createContext({
    ...contextOptions(tuning, model.trainContextSize),
    ...(opts.itemPrioritizationStrategy
      ? { batching: { itemPrioritizationStrategy: opts.itemPrioritizationStrategy } }
      : {}),
  });
  const sequences = Array.from({ length: opts.sequences }, () => context.getSequence());
  const chatWrapper = nlc.resolveChatWrapper(model);

  /** One generation on `on`; returns the prompt tokens it had to evaluate. */
  async function ask(
    on: LlamaContextSequence,
    system: string,
    user: string,
    maxTokens = 3,
  ): Promise<number> {
    const chat = new nlc.LlamaChat({
      contextSequence: on,
      chatWrapper,
      autoDisposeSequence: false,
    });
    const history: ChatHistoryItem[] = [
      { type: 'system', text: system },
      { type: 'user', text: user },
      { type: 'model', response: [] },
    ];
    const before = on.tokenMeter.usedInputTokens;
    try {
      await chat.generateResponse(history, { maxTokens });
    } finally {
      chat.dispose({ disposeSequence: false });
    }
    return on.tokenMeter.usedInputTokens - before;
  }

  return { llama, model, chatWrapper, sequences, ask, close: () => llama.dispose() };
}

/**
 * The embedded provider itself on the tiny GGUF, loaded (`p.whenSettled()` has resolved), with
 * its own data directory; `close` ends it and removes the directory.
 */
export async function startTinyProvider(opts: { sequences: number; contextSize: number }) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'inkwell-llama-'));
  const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
  const p = new LlamaModelProvider(
    { MODEL_PATH: ensureTinyGguf(), MODEL_DOWNLOAD: 'off', dataDir },
    log,
    { gpu: false, ...opts, threads: defaultThreads(availableParallelism()) },
  );
  p.start();
  await p.whenSettled();
  return {
    p,
    async close() {
      await p.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
