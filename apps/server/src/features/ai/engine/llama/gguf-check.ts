import { open, stat } from 'node:fs/promises';
import type { readGgufFileInfo } from 'node-llama-cpp';

/**
 * Checks a GGUF file before llama.cpp sees it. A malformed file can make llama.cpp abort the whole
 * process in a native assertion, so the header, the metadata llama.cpp requires and the tensor
 * bounds are checked here, in JavaScript, where a failure is just an error message.
 */
export class InvalidModelFileError extends Error {}

// [elements per block, bytes per block] of ggml types, for the tensor bounds check.
const TYPE_SIZES: Record<number, [number, number]> = {
  0: [1, 4], // F32
  1: [1, 2], // F16
  2: [32, 18], // Q4_0
  3: [32, 20], // Q4_1
  6: [32, 22], // Q5_0
  7: [32, 24], // Q5_1
  8: [32, 34], // Q8_0
  9: [32, 36], // Q8_1
  10: [256, 84], // Q2_K
  11: [256, 110], // Q3_K
  12: [256, 144], // Q4_K
  13: [256, 176], // Q5_K
  14: [256, 210], // Q6_K
  15: [256, 292], // Q8_K
  30: [1, 2], // BF16
};

export interface GgufSummary {
  architecture: string;
  contextLength: number;
  tensorCount: number;
}

export async function checkGgufFile(file: string): Promise<GgufSummary> {
  const size = (await stat(file)).size;
  const head = Buffer.alloc(8);
  const fh = await open(file, 'r');
  try {
    await fh.read(head, 0, 8, 0);
  } finally {
    await fh.close();
  }
  if (head.subarray(0, 4).toString('latin1') !== 'GGUF')
    throw new InvalidModelFileError('not a GGUF file');
  const version = head.readUInt32LE(4);
  if (version < 2 || version > 3)
    throw new InvalidModelFileError(`unsupported GGUF version ${version}`);

  let info: Awaited<ReturnType<typeof readGgufFileInfo>>;
  try {
    // node-llama-cpp takes a second and a half to load: only when a model file is checked.
    const { readGgufFileInfo } = await import('node-llama-cpp');
    info = await readGgufFileInfo(file, {
      sourceType: 'filesystem',
      spliceSplitFiles: false,
      logWarnings: false,
    });
  } catch (err) {
    throw new InvalidModelFileError(`unreadable GGUF metadata (${(err as Error).message})`);
  }
  const meta = info.metadata as unknown as Record<string, Record<string, unknown> | undefined>;
  const arch = String(meta.general?.architecture ?? '');
  if (!arch) throw new InvalidModelFileError('general.architecture is missing');
  const archMeta = (meta[arch] ?? {}) as Record<string, unknown>;
  const num = (key: string) => {
    const v = key
      .split('.')
      .reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], archMeta);
    return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined;
  };
  for (const key of ['context_length', 'embedding_length', 'block_count']) {
    if (!num(key)) throw new InvalidModelFileError(`${arch}.${key} is missing or invalid`);
  }
  const embd = num('embedding_length')!;
  const heads = num('attention.head_count');
  if (heads && embd % heads !== 0)
    throw new InvalidModelFileError(`${arch}.embedding_length is not a multiple of the head count`);
  const tokens = (meta.tokenizer?.ggml as Record<string, unknown> | undefined)?.tokens;
  if (!Array.isArray(tokens) || tokens.length === 0)
    throw new InvalidModelFileError('tokenizer.ggml.tokens is missing');

  const tensors = info.tensorInfo ?? [];
  if (tensors.length === 0) throw new InvalidModelFileError('the file has no tensors');
  for (const t of tensors) {
    const dims = t.dimensions.map(Number);
    if (dims.some((d) => !Number.isSafeInteger(d) || d <= 0))
      throw new InvalidModelFileError(`tensor ${t.name} has invalid dimensions`);
    const start = Number(t.fileOffset);
    const ts = TYPE_SIZES[t.ggmlType];
    const elements = dims.reduce((a, b) => a * b, 1);
    const bytes = ts ? Math.ceil(elements / ts[0]) * ts[1] : 0;
    if (start + bytes > size)
      throw new InvalidModelFileError(
        `tensor ${t.name} lies beyond the end of the file (truncated download?)`,
      );
    if (t.name === 'token_embd.weight' && (dims[0] !== embd || dims[1] !== tokens.length)) {
      throw new InvalidModelFileError(
        'token_embd.weight does not match the embedding size and vocabulary',
      );
    }
  }
  return { architecture: arch, contextLength: num('context_length')!, tensorCount: tensors.length };
}
