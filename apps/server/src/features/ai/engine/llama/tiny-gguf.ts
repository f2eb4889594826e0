import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Writes a tiny llama-architecture GGUF (random F32 weights, byte-level vocabulary, ChatML
 * template) that node-llama-cpp really loads, so the `llama` provider is tested through the real
 * native code without a network. Its output is gibberish and it never emits an end token: tests
 * check the machinery (loading, streaming, queueing, cancellation, limits), not the words.
 */
export interface TinyGgufOptions {
  embedding?: number;
  feedForward?: number;
  blocks?: number;
  heads?: number;
  contextLength?: number;
  seed?: number;
}

const CHATML_TEMPLATE =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}" +
  "{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

// GGUF value types and token types (see ggml's gguf.h and llama-vocab.h).
const T = { u32: 4, f32: 6, bool: 7, string: 8, array: 9, i32: 5 } as const;
const TOKEN = { normal: 1, unknown: 2, control: 3, byte: 6 } as const;
const ALIGN = 32;

type Value =
  | { t: 'u32' | 'f32' | 'i32'; v: number }
  | { t: 'bool'; v: boolean }
  | { t: 'string'; v: string }
  | { t: 'strings'; v: string[] }
  | { t: 'f32s' | 'i32s'; v: number[] };

const SPECIALS = ['<unk>', '<s>', '</s>', '<|im_start|>', '<|im_end|>'];
const SPECIAL_TOKENS = SPECIALS.length;

/** The vocabulary: specials, the 256 byte tokens, then printable single characters. */
function vocabulary() {
  const tokens = [...SPECIALS];
  const types: number[] = [
    TOKEN.unknown,
    TOKEN.control,
    TOKEN.control,
    TOKEN.control,
    TOKEN.control,
  ];
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(TOKEN.byte);
  }
  tokens.push('▁');
  types.push(TOKEN.normal);
  for (let c = 0x21; c < 0x7f; c++) {
    tokens.push(String.fromCharCode(c));
    types.push(TOKEN.normal);
  }
  for (const w of ['▁the', '▁a', '▁is', '▁and', '▁to', '▁of', '▁in', '▁you']) {
    tokens.push(w);
    types.push(TOKEN.normal);
  }
  // Higher score = preferred merge; longer pieces first.
  const scores = tokens.map((t, i) => (types[i] === TOKEN.normal ? t.length * 10 - i / 1000 : 0));
  return { tokens, types, scores };
}

/** Deterministic pseudo-random weights (mulberry32), so the file is the same for one seed. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function tinyGgufBytes(opts: TinyGgufOptions = {}): Buffer {
  const nEmbd = opts.embedding ?? 64;
  const nFf = opts.feedForward ?? 128;
  const nBlocks = opts.blocks ?? 2;
  const nHead = opts.heads ?? 4;
  const vocab = vocabulary();
  const nVocab = vocab.tokens.length;

  const meta: [string, Value][] = [
    ['general.architecture', { t: 'string', v: 'llama' }],
    ['general.name', { t: 'string', v: 'inkwell-tiny-test' }],
    ['general.alignment', { t: 'u32', v: ALIGN }],
    ['general.file_type', { t: 'u32', v: 0 }],
    ['llama.context_length', { t: 'u32', v: opts.contextLength ?? 4096 }],
    ['llama.embedding_length', { t: 'u32', v: nEmbd }],
    ['llama.block_count', { t: 'u32', v: nBlocks }],
    ['llama.feed_forward_length', { t: 'u32', v: nFf }],
    ['llama.attention.head_count', { t: 'u32', v: nHead }],
    ['llama.attention.head_count_kv', { t: 'u32', v: nHead }],
    ['llama.attention.layer_norm_rms_epsilon', { t: 'f32', v: 1e-5 }],
    ['llama.rope.dimension_count', { t: 'u32', v: nEmbd / nHead }],
    ['tokenizer.ggml.model', { t: 'string', v: 'llama' }],
    ['tokenizer.ggml.tokens', { t: 'strings', v: vocab.tokens }],
    ['tokenizer.ggml.scores', { t: 'f32s', v: vocab.scores }],
    ['tokenizer.ggml.token_type', { t: 'i32s', v: vocab.types }],
    ['tokenizer.ggml.unknown_token_id', { t: 'u32', v: 0 }],
    ['tokenizer.ggml.bos_token_id', { t: 'u32', v: 1 }],
    ['tokenizer.ggml.eos_token_id', { t: 'u32', v: 4 }],
    ['tokenizer.ggml.add_bos_token', { t: 'bool', v: false }],
    ['tokenizer.chat_template', { t: 'string', v: CHATML_TEMPLATE }],
  ];

  // ne[0] first, as ggml orders dimensions.
  const tensors: [string, number[], 'norm' | 'weight' | 'output'][] = [
    ['token_embd.weight', [nEmbd, nVocab], 'weight'],
    ['output_norm.weight', [nEmbd], 'norm'],
    ['output.weight', [nEmbd, nVocab], 'output'],
  ];
  for (let i = 0; i < nBlocks; i++) {
    tensors.push(
      [`blk.${i}.attn_norm.weight`, [nEmbd], 'norm'],
      [`blk.${i}.attn_q.weight`, [nEmbd, nEmbd], 'weight'],
      [`blk.${i}.attn_k.weight`, [nEmbd, nEmbd], 'weight'],
      [`blk.${i}.attn_v.weight`, [nEmbd, nEmbd], 'weight'],
      [`blk.${i}.attn_output.weight`, [nEmbd, nEmbd], 'weight'],
      [`blk.${i}.ffn_norm.weight`, [nEmbd], 'norm'],
      [`blk.${i}.ffn_gate.weight`, [nEmbd, nFf], 'weight'],
      [`blk.${i}.ffn_up.weight`, [nEmbd, nFf], 'weight'],
      [`blk.${i}.ffn_down.weight`, [nFf, nEmbd], 'weight'],
    );
  }

  const w = new Writer();
  w.bytes(Buffer.from('GGUF', 'ascii'));
  w.u32(3);
  w.u64(tensors.length);
  w.u64(meta.length);
  for (const [key, value] of meta) {
    w.str(key);
    w.value(value);
  }
  let offset = 0;
  const sizes: number[] = [];
  for (const [name, dims] of tensors) {
    w.str(name);
    w.u32(dims.length);
    for (const d of dims) w.u64(d);
    w.u32(0); // GGML_TYPE_F32
    w.u64(offset);
    const size = dims.reduce((a, b) => a * b, 1) * 4;
    sizes.push(size);
    offset += Math.ceil(size / ALIGN) * ALIGN;
  }
  w.pad(ALIGN);
  const rand = random(opts.seed ?? 42);
  tensors.forEach(([, dims, kind], i) => {
    const n = dims.reduce((a, b) => a * b, 1);
    const data = new Float32Array(n);
    // Scaled like a real initialisation (~1/sqrt(fan-in)) so activations stay finite.
    const scale = 1 / Math.sqrt(dims[0]!);
    for (let j = 0; j < n; j++) data[j] = kind === 'norm' ? 1 : (rand() * 2 - 1) * scale;
    // Zero output rows give the special tokens a logit of 0, the median: never among the top-k
    // candidates, so no end token is sampled and every reply runs to its length bound.
    if (kind === 'output') data.fill(0, 0, SPECIAL_TOKENS * dims[0]!);
    w.bytes(Buffer.from(data.buffer));
    w.pad(ALIGN, sizes[i]!);
  });
  return w.done();
}

/** Writes the tiny model to `file` (atomically: a partial file is never left under the name). */
export function writeTinyGguf(file: string, opts: TinyGgufOptions = {}): string {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, tinyGgufBytes(opts));
  renameSync(tmp, file);
  return file;
}

/** The default tiny model, generated once per machine under the OS temp directory. */
export function ensureTinyGguf(dir = path.join(tmpdir(), 'inkwell-tiny-gguf')): string {
  const file = path.join(dir, 'tiny-llama-v2.gguf');
  if (!existsSync(file)) writeTinyGguf(file);
  return file;
}

class Writer {
  private parts: Buffer[] = [];
  private length = 0;
  bytes(b: Buffer) {
    this.parts.push(b);
    this.length += b.length;
  }
  u32(n: number) {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    this.bytes(b);
  }
  u64(n: number) {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(n));
    this.bytes(b);
  }
  str(s: string) {
    const b = Buffer.from(s, 'utf8');
    this.u64(b.length);
    this.bytes(b);
  }
  value(v: Value) {
    const b = Buffer.alloc(4);
    switch (v.t) {
      case 'u32':
        this.u32(T.u32);
        return this.u32(v.v);
      case 'i32':
        this.u32(T.i32);
        b.writeInt32LE(v.v);
        return this.bytes(b);
      case 'f32':
        this.u32(T.f32);
        b.writeFloatLE(v.v);
        return this.bytes(b);
      case 'bool':
        this.u32(T.bool);
        return this.bytes(Buffer.from([v.v ? 1 : 0]));
      case 'string':
        this.u32(T.string);
        return this.str(v.v);
      case 'strings':
        this.u32(T.array);
        this.u32(T.string);
        this.u64(v.v.length);
        return v.v.forEach((s) => this.str(s));
      case 'f32s':
      case 'i32s': {
        this.u32(T.array);
        this.u32(v.t === 'f32s' ? T.f32 : T.i32);
        this.u64(v.v.length);
        const arr = Buffer.alloc(4 * v.v.length);
        v.v.forEach((x, i) =>
          v.t === 'f32s' ? arr.writeFloatLE(x, i * 4) : arr.writeInt32LE(x, i * 4),
        );
        return this.bytes(arr);
      }
    }
  }
  /** Zero bytes up to the next multiple of `align` (of the whole file, or of `size` when given). */
  pad(align: number, size?: number) {
    const at = size ?? this.length;
    const rest = (align - (at % align)) % align;
    if (rest) this.bytes(Buffer.alloc(rest));
  }
  done() {
    return Buffer.concat(this.parts);
  }
}
