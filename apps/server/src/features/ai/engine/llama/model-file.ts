import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Backoff } from '../backoff';

/**
 * Where the embedded model's GGUF file comes from: MODEL_PATH (a local file), or MODEL (a `hf:`
 * URI or a URL) downloaded once into DATA_DIR/models. The local name is derived from MODEL
 * without the network, so a restart finds the file offline.
 */
export const DEFAULT_MODEL = 'hf:Qwen/Qwen2.5-1.5B-Instruct-GGUF/qwen2.5-1.5b-instruct-q4_k_m.gguf';

export interface ModelFileSettings {
  MODEL?: string;
  MODEL_PATH?: string;
  MODEL_DOWNLOAD: 'auto' | 'off';
  dataDir: string;
}

export type ModelFilePlan =
  | { kind: 'local'; file: string }
  | { kind: 'download'; file: string; uri: string }
  | { kind: 'missing'; file: string; reason: string };

/** The local file name for a model URI: its own file name when it has one. */
export function localFileName(uri: string): string {
  const withoutQuery = uri.split(/[?#]/)[0]!;
  const last = withoutQuery.split('/').pop() ?? '';
  if (/\.gguf$/i.test(last)) return last;
  return `${uri.replace(/^hf:/, '').replace(/[^A-Za-z0-9._-]+/g, '_')}.gguf`;
}

export function planModelFile(s: ModelFileSettings): ModelFilePlan {
  if (s.MODEL_PATH) {
    const file = path.resolve(s.MODEL_PATH);
    if (existsSync(file)) return { kind: 'local', file };
    return {
      kind: 'missing',
      file,
      reason: `MODEL_PATH=${file} does not exist; point MODEL_PATH at a GGUF file, or set AI_BASE_URL to an OpenAI-compatible server`,
    };
  }
  const uri = s.MODEL ?? DEFAULT_MODEL;
  const file = path.join(s.dataDir, 'models', localFileName(uri));
  if (existsSync(file)) return { kind: 'local', file };
  if (s.MODEL_DOWNLOAD === 'off') {
    return {
      kind: 'missing',
      file,
      reason:
        `the model file ${file} is missing and MODEL_DOWNLOAD=off; set MODEL_DOWNLOAD=auto to download ` +
        `${uri}, put a GGUF file there, set MODEL_PATH, or set AI_BASE_URL to an OpenAI-compatible server`,
    };
  }
  return { kind: 'download', file, uri };
}

/**
 * Downloads the model with node-llama-cpp's downloader: a progress bar in the terminal, and an
 * interrupted download resumes from its partial file on the next start.
 */
export async function downloadModel(
  plan: { file: string; uri: string },
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<string> {
  await assertReachable(plan.uri, signal);
  const { createModelDownloader } = await import('node-llama-cpp');
  mkdirSync(path.dirname(plan.file), { recursive: true });
  const downloader = await createModelDownloader({
    modelUri: plan.uri,
    dirPath: path.dirname(plan.file),
    fileName: path.basename(plan.file),
    showCliProgress: Boolean(process.stderr.isTTY),
    deleteTempFileOnCancel: false,
    onProgress: ({ totalSize, downloadedSize }) => {
      if (totalSize > 0) onProgress(downloadedSize / totalSize);
    },
  });
  return downloader.download({ signal });
}

/** What a download that keeps failing tells its model, between attempts. */
export interface DownloadAttempts {
  backoff: Backoff;
  /** An attempt starts. */
  onAttempt(): void;
  /** An attempt failed; the next one starts after the backoff (or at once on backoff.now()). */
  onFailure(reason: string): void;
}

/** The time between attempts at a failed download: 10 s, doubling up to 10 minutes. */
export const DOWNLOAD_BACKOFF = { minMs: 10_000, maxMs: 10 * 60_000 };

/**
 * Downloads the model, trying again with backoff after each failure (a network that comes back,
 * a host that was down) until it succeeds or the signal aborts.
 */
export async function downloadWithRetry(
  plan: { file: string; uri: string },
  onProgress: (fraction: number) => void,
  attempts: DownloadAttempts,
  signal?: AbortSignal,
): Promise<string> {
  for (;;) {
    attempts.onAttempt();
    try {
      return await downloadModel(plan, onProgress, signal);
    } catch (err) {
      if (signal?.aborted) throw err;
      attempts.onFailure(
        `could not download the model ${plan.uri} (${(err as Error).message}); trying again with backoff, ` +
          `or put a GGUF file at ${plan.file}, set MODEL_PATH, or set AI_BASE_URL to an OpenAI-compatible server`,
      );
      await attempts.backoff.wait(signal);
      if (signal?.aborted) throw err;
    }
  }
}

/**
 * Fails fast when the download host cannot be reached at all (offline machine): the downloader
 * itself retries for minutes, which is right for a flaky network but not for no network.
 */
async function assertReachable(uri: string, signal?: AbortSignal): Promise<void> {
  const origin = uri.startsWith('hf:') ? 'https://huggingface.co' : new URL(uri).origin;
  const timeout = AbortSignal.timeout(15_000);
  try {
    const res = await fetch(origin, {
      method: 'HEAD',
      redirect: 'manual',
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    await res.body?.cancel();
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(
      `${origin} cannot be reached: ${cause?.code ?? cause?.message ?? (err as Error).message}`,
    );
  }
}
