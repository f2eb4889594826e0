import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BLOCK_BYTES, buildFilePassages } from './passages';

describe("a file's passages for the index", () => {
  it('keeps their texts in deflated blocks, each passage its bytes in one block', () => {
    // Several blocks' worth of text, with two- and four-byte characters on the way.
    const paragraphs = Array.from(
      { length: 400 },
      (_, i) => `Paragraph ${i}: the lighthouse keeper’s budget grew — Ülkü paid 5 € for 🐟 ${i}.`,
    );
    const text = paragraphs.join('\n\n');
    const f = buildFilePassages({ units: [{ kind: 'paragraph', label: 'Text', text }], text });
    expect(f.blocks.length).toBeGreaterThan(2);
    const blocks = f.blocks.map((b) => inflateRawSync(b));
    for (const b of blocks.slice(0, -1)) expect(b.length).toBeLessThanOrEqual(BLOCK_BYTES);
    for (const p of f.passages) {
      expect(blocks[p.block]!.toString('utf8', p.at, p.at + p.size)).toBe(p.text);
    }
    // In order, with no gap: every block's bytes are its passages'.
    const bytes = blocks.map(() => 0);
    for (const p of f.passages) bytes[p.block]! += p.size;
    expect(bytes).toEqual(blocks.map((b) => b.length));
  });
});
