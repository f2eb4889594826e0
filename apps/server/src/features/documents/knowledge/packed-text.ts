import { inflateRawSync } from 'node:zlib';

/** The columns of a stored passage that find its text: its bytes' place in a deflated block. */
export type Stored = { block: number; block_at: number; block_size: number; packed: Uint8Array };

/** Stored passages with their texts, each block inflated once (only those a question reaches). */
export function unpack<T extends Stored & { file_id: number }>(
  rows: T[],
): (Omit<T, keyof Stored> & { text: string })[] {
  const blocks = new Map<string, Buffer>();
  return rows.map((r) => {
    const { packed, block, block_at, block_size, ...rest } = r;
    const key = `${r.file_id}:${block}`;
    let text = blocks.get(key);
    if (!text) blocks.set(key, (text = inflateRawSync(packed)));
    return { ...rest, text: text.toString('utf8', block_at, block_at + block_size) };
  });
}
