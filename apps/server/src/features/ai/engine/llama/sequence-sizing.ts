import { existsSync, statSync } from 'node:fs';
import { freemem } from 'node:os';

/**
 * How many sequences (parallel generations) the embedded model gets with LLAMA_SEQUENCES=auto:
 * as many as the memory the model leaves holds, each with its own KV cache of LLAMA_CONTEXT
 * tokens. More sequences cost memory only while idle and let more people's chats start at once
 * instead of waiting for whole replies; on a CPU they share the same threads, so past a few the
 * gain is small: hence the cap.
 */
export const AUTO_SEQUENCES_CAP = 8;
/** Used while the model file is not there yet (first start, downloading): sized at the next start. */
export const SEQUENCES_BEFORE_DOWNLOAD = 2;
/** Share of the memory left after the model that its sequences may take; the rest stays for the app. */
const KV_SHARE = 0.5;

export interface SequencePlan {
  sequences: number;
  /** Why this many, for the start-up log. */
  reason: string;
}

export interface MemoryFigures {
  /** Memory available to this process now (bytes). */
  availableBytes: number;
  /** The model's weights (the file is mapped and read whole). */
  modelBytes: number;
  /** The context's buffers that do not grow with sequences (compute graph, batch). */
  sharedBytes: number;
  /** One sequence's KV cache at the configured context size. */
  perSequenceBytes: number;
  cap?: number;
}

/**
 * Sequences that fit: half of what is left after the model and the context's shared buffers,
 * divided by one sequence's KV cache; at least 1 (the model runs, or fails to load with its own
 * error), at most the cap.
 */
export function sequencesForMemory(m: MemoryFigures): number {
  const cap = m.cap ?? AUTO_SEQUENCES_CAP;
  const left = m.availableBytes - m.modelBytes - m.sharedBytes;
  if (m.perSequenceBytes <= 0) return cap;
  const fit = Math.floor((left * KV_SHARE) / m.perSequenceBytes);
  return Math.max(1, Math.min(cap, fit));
}

/** Memory this process may still take: the container's limit where one is set (cgroup), else free RAM. */
export function availableMemoryBytes(): number {
  const fromProcess = (process as { availableMemory?: () => number }).availableMemory?.();
  return fromProcess && fromProcess > 0 ? fromProcess : freemem();
}

/**
 * The plan for LLAMA_SEQUENCES: a number as given, or `auto` sized from the model file's own
 * figures (node-llama-cpp's estimate of a context with 1 and 2 sequences: the difference is one
 * sequence's KV cache) and the memory available now.
 */
export async function planSequences(
  setting: number | 'auto',
  file: string,
  contextSize: number,
  availableBytes = availableMemoryBytes(),
): Promise<SequencePlan> {
  if (setting !== 'auto') return { sequences: setting, reason: 'LLAMA_SEQUENCES' };
  if (!existsSync(file))
    return {
      sequences: SEQUENCES_BEFORE_DOWNLOAD,
      reason: 'auto; the model file is not there yet, so it is sized at the next start',
    };
  const { readGgufFileInfo, GgufInsights } = await import('node-llama-cpp');
  const insights = await GgufInsights.from(await readGgufFileInfo(file));
  const ctx = Math.min(contextSize, insights.trainContextSize ?? contextSize);
  const ram = (sequences: number) =>
    insights.estimateContextResourceRequirements({ contextSize: ctx, modelGpuLayers: 0, sequences })
      .cpuRam;
  const [one, two] = [ram(1), ram(2)];
  const perSequenceBytes = two - one;
  const figures = {
    availableBytes,
    modelBytes: statSync(file).size,
    sharedBytes: Math.max(0, one - perSequenceBytes),
    perSequenceBytes,
  };
  const sequences = sequencesForMemory(figures);
  const mib = (b: number) => `${Math.round(b / 2 ** 20)} MiB`;
  return {
    sequences,
    reason:
      `auto: ${mib(perSequenceBytes)} each at ${ctx} tokens, ${mib(availableBytes)} available, ` +
      `model ${mib(figures.modelBytes)}, at most ${AUTO_SEQUENCES_CAP}`,
  };
}

/** planSequences for the provider: no file yet (missing, or to download) or an unreadable one fall back. */
export async function decideSequences(
  setting: number | 'auto',
  file: string | undefined,
  contextSize: number,
): Promise<SequencePlan> {
  if (setting !== 'auto') return { sequences: setting, reason: 'LLAMA_SEQUENCES' };
  if (file === undefined) return { sequences: SEQUENCES_BEFORE_DOWNLOAD, reason: 'no model file' };
  return planSequences(setting, file, contextSize).catch((err: unknown) => ({
    sequences: SEQUENCES_BEFORE_DOWNLOAD,
    reason: `auto could not read the model file: ${err instanceof Error ? err.message : String(err)}`,
  }));
}
