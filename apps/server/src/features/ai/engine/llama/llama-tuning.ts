import { availableParallelism } from 'node:os';
import type { ChatHistoryItem } from 'node-llama-cpp';
import type { Config } from '../../../../config';
import type { ChatTurn, GenerateOptions } from '../../language-model';
import { SEQUENCES_BEFORE_DOWNLOAD } from './sequence-sizing';

/**
 * The embedded engine's settings and the shape of one generation, shared by the provider and the
 * benchmark's direct run of node-llama-cpp (which must run exactly as the product does).
 */
export interface LlamaTuning {
  /** false (CPU, the default: a GPU build on a machine without one must not be tried), or a GPU type. */
  gpu: false | 'auto' | 'cuda' | 'vulkan' | 'metal';
  /** Parallel generations (requests beyond them queue), or `auto`: sized to the memory left. */
  sequences: number | 'auto';
  /** Tokens per sequence, at most what the model was trained on. */
  contextSize: number;
  threads: number;
}

/** Tuning from the configuration (LLAMA_GPU, LLAMA_SEQUENCES, LLAMA_CONTEXT, LLAMA_THREADS). */
export function tuningFromConfig(
  config: Pick<Config, 'LLAMA_GPU' | 'LLAMA_SEQUENCES' | 'LLAMA_CONTEXT' | 'LLAMA_THREADS'>,
): LlamaTuning {
  return {
    gpu: config.LLAMA_GPU === 'off' ? false : config.LLAMA_GPU,
    sequences: config.LLAMA_SEQUENCES,
    contextSize: config.LLAMA_CONTEXT,
    threads: config.LLAMA_THREADS ?? defaultThreads(availableParallelism()),
  };
}

/**
 * One core is left to the event loop (HTTP, the token stream) and the database. llama.cpp's
 * threads wait for each other by spinning, so when one of them has to share its core, the others
 * stall for whole scheduler slices: on 2 busy cores, a 170 MB model generated ~2 tokens/s with 2
 * threads and ~100 with 1. (node-llama-cpp's own default, at least 4, is worse still.)
 */
export function defaultThreads(cores: number): number {
  return Math.max(1, cores - 1);
}

/** getLlama() options of a tuning. */
export function llamaOptions(tuning: LlamaTuning) {
  return { gpu: tuning.gpu, build: 'never', maxThreads: tuning.threads } as const;
}

/** createContext() options of a tuning for a model trained on `trainContextSize` tokens. */
export function contextOptions(
  tuning: LlamaTuning,
  trainContextSize: number,
  sequences = typeof tuning.sequences === 'number' ? tuning.sequences : SEQUENCES_BEFORE_DOWNLOAD,
) {
  return {
    sequences,
    contextSize: Math.min(tuning.contextSize, trainContextSize),
    threads: tuning.threads,
  };
}

const DEFAULT_MAX_TOKENS = 512;

/** Length bound and sampling of a generation. */
export function samplingOptions(opts: GenerateOptions, sequenceContextSize: number) {
  return {
    // Always bounded: a small (or random) model may never emit its end token.
    maxTokens: Math.min(opts.maxTokens ?? DEFAULT_MAX_TOKENS, Math.floor(sequenceContextSize / 2)),
    temperature: opts.temperature ?? 0.7,
  };
}

/** The turns in node-llama-cpp's shape, ending with the empty model turn to be generated. */
export function toHistory(turns: ChatTurn[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = turns.map((t) =>
    t.role === 'assistant'
      ? { type: 'model', response: [t.content] }
      : { type: t.role === 'system' ? 'system' : 'user', text: t.content },
  );
  history.push({ type: 'model', response: [] });
  return history;
}
