import type { FastifyBaseLogger } from 'fastify';
import { checkGgufFile } from './gguf-check';
import { probeModel } from './llama-probe';
import { interactiveFirst } from './batch-priority';
import { SequenceCuts } from './sequence-cuts';
import { Pool } from './sequence-pool';
import { KeptWork, SystemPrefix } from './system-prefix';
import { contextOptions, llamaOptions, type LlamaTuning } from './llama-tuning';
import type { ReadyEngine } from './llama-state';

/**
 * Checks that a model file can be loaded before this process loads it: a GGUF header that makes
 * sense, then a load in a child process (a file llama.cpp cannot read may crash the process).
 */
export async function checkLoadable(file: string, tuning: LlamaTuning, dataDir: string) {
  try {
    await checkGgufFile(file);
  } catch (err) {
    throw new Error(
      `the model file ${file} is not a valid GGUF model: ${(err as Error).message}; replace it or fix MODEL_PATH`,
    );
  }
  const probe = await probeModel(file, tuning.gpu, dataDir);
  if (!probe.ok)
    throw new Error(
      `the model file ${file} cannot be loaded (${probe.error}); replace it or fix MODEL_PATH`,
    );
}

/** What the engine's decode loop asks of the provider. */
export interface EngineActivity {
  /** Whether some call is generating (the context may be decoding). */
  generating(): boolean;
  /** Whether a person's call holds a sequence. */
  interactiveRunning(): boolean;
}

/** Loads the model into this process and makes its context with `sequences` sequences. */
export async function openEngine(
  file: string,
  tuning: LlamaTuning,
  sequences: number,
  log: FastifyBaseLogger,
  activity: EngineActivity,
): Promise<ReadyEngine> {
  const { getLlama, LlamaChat, LlamaLogLevel, resolveChatWrapper } = await import('node-llama-cpp');
  const llama = await getLlama({
    ...llamaOptions(tuning),
    logLevel: LlamaLogLevel.warn,
    logger: (level, message) => log.debug({ level }, `llama.cpp: ${message.trim()}`),
  });
  try {
    const model = await llama.loadModel({ modelPath: file });
    const cuts = new SequenceCuts(activity.generating);
    const peopleFirst = interactiveFirst(activity.interactiveRunning);
    const context = await model.createContext({
      ...contextOptions(tuning, model.trainContextSize, sequences),
      batching: {
        // Called under the context lock before each decode: the moment cuts can run.
        itemPrioritizationStrategy: (batch) => {
          cuts.runPending();
          return peopleFirst(batch);
        },
      },
    });
    const all = Array.from({ length: sequences }, () => context.getSequence());
    const chatWrapper = resolveChatWrapper(model);
    const prefix = new SystemPrefix(model, chatWrapper, (s, keep) => cuts.cut(s, keep));
    return {
      kind: 'ready',
      llama,
      model,
      context,
      pool: new Pool(all),
      sequences: all,
      chatWrapper,
      prefix,
      kept: new KeptWork(prefix),
      cuts,
      Chat: LlamaChat,
    };
  } catch (err) {
    await llama.dispose().catch(() => {});
    throw err;
  }
}
