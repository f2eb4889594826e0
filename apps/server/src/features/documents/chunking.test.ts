import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../ai';
import { withSources } from './ask.service';
import { chunkDocument, compactRef, packChunks, splitOversized } from './chunking';
import { pickTextColumn } from './text-column';

describe('chunking', () => {
  it('keeps every chunk within budget, in order, losing no text', () => {
    const units = Array.from({ length: 30 }, (_, i) => ({
      kind: 'page' as const,
      label: `Page ${i + 1}`,
      text: `Heading ${i + 1}\n\n` + `Sentence ${i} of the page goes on. `.repeat(40),
    }));
    const chunks = chunkDocument(units, 200, estimateTokens);
    for (const c of chunks) expect(estimateTokens(c.text)).toBeLessThanOrEqual(200);
    const words = (s: string) => s.split(/\s+/).filter(Boolean);
    expect(words(chunks.map((c) => c.text).join(' '))).toEqual(
      words(units.map((u) => u.text).join(' ')),
    );
    expect(chunks[0]!.ref).toBe('Page 1');
  });

  it('cuts a giant text without spaces or sentence ends', () => {
    const parts = splitOversized('x'.repeat(100_000), 500, estimateTokens);
    expect(parts.join('')).toHaveLength(100_000);
    for (const p of parts) expect(estimateTokens(p)).toBeLessThanOrEqual(500);
  });

  it('cuts at sentence ends, not inside a number, and keeps what stood between the parts', () => {
    const count = (t: string) => t.length;
    const latin = 'The satellite sat at 28.5°E for years.  Then it moved to 19.2°E at last.';
    const chunks = packChunks([{ text: latin, label: 'Paragraph 1', boundary: false }], 40, count);
    expect(chunks.map((c) => c.text)).toEqual([
      'The satellite sat at 28.5°E for years.',
      'Then it moved to 19.2°E at last.',
    ]);
    expect(chunks.map((c) => c.joins)).toEqual([undefined, '  ']);
    const chinese = '第一句话在这里结束了吗是的。第二句话也在这里结束了是的。';
    const zh = packChunks([{ text: chinese, label: 'Paragraph 1', boundary: false }], 16, count);
    expect(zh.map((c) => c.text)).toEqual([
      '第一句话在这里结束了吗是的。',
      '第二句话也在这里结束了是的。',
    ]);
    expect(zh.map((c) => c.joins)).toEqual([undefined, '']);
  });

  it('labels rows of sheets and compacts references', () => {
    const chunks = chunkDocument(
      [
        {
          kind: 'sheet',
          label: 'Data',
          text: '',
          rows: [
            ['a', 'b'],
            ['c', 'd'],
            ['e', 'f'],
          ],
        },
      ],
      1000,
      estimateTokens,
    );
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.ref).toBe('Data row 1–3');
    expect(compactRef(['Page 2'])).toBe('Page 2');
    expect(compactRef(['Sheet1 row 9', 'Other row 1'])).toBe('Sheet1 row 9 – Other row 1');
  });
});

describe('answer sources', () => {
  it('always names the sources of an answer', () => {
    expect(withSources('Yes.', ['Page 2', 'Page 5'])).toBe('Yes.\n\nSources: Page 2; Page 5');
    expect(withSources('Yes [Page 2].', ['Page 2'])).toBe('Yes [Page 2].');
  });
});

describe('text column of a table', () => {
  it('picks the column with the most words per cell, and detects the header', () => {
    expect(
      pickTextColumn([
        ['id', 'Review'],
        ['1', 'Great stuff'],
      ]),
    ).toEqual({
      index: 1,
      name: 'Review',
      dataStart: 1,
      names: ['id', 'Review'],
    });
    const rows = [
      ['sku', 'stars', 'what they said'],
      ['A1', '5', 'I absolutely love this product, it works perfectly'],
      ['B2', '1', 'Broke after one day, a complete waste of money'],
    ];
    expect(pickTextColumn(rows)).toMatchObject({ index: 2, name: 'what they said', dataStart: 1 });
    expect(pickTextColumn([['I love it so much'], ['I hate it so much']])?.dataStart).toBe(0);
    // Another column by its name, in any case; a name the table does not have: none.
    expect(pickTextColumn(rows, 'SKU')).toMatchObject({ index: 0, name: 'sku', dataStart: 1 });
    expect(pickTextColumn(rows, 'price')).toBeNull();
  });
});
