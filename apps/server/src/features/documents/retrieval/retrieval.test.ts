import { afterAll, describe, expect, it } from 'vitest';
import { estimateTokens } from '../../ai';
import { defaultPassageTokens } from '../ask.service';
import type { TextUnit } from '../../files';
import { choosePassages, joinAdjacent, RELATIVE_FLOOR } from './choose-passages';
import type { Candidate } from './passage-index';
import { closePassagePool, searchSource, storedFileKey } from './passage-pool';

afterAll(() => closePassagePool());

const cand = (
  index: number,
  score: number,
  text = `passage ${index} `.repeat(20),
  ref = `Page ${index}`,
): Candidate => ({
  index,
  score,
  text,
  ref,
  tokens: estimateTokens(text),
});

describe('prompt sizing', () => {
  it('takes the best passages while they score near the best, in document order', () => {
    const ranked = [
      cand(7, 10),
      cand(2, 8),
      cand(9, 4),
      cand(4, 10 * RELATIVE_FLOOR - 0.1),
      cand(1, 0.5),
    ];
    const chosen = choosePassages(ranked, [], 10_000, estimateTokens);
    expect(chosen.map((c) => c.index)).toEqual([2, 7, 9]);
  });

  it('never goes over the budget, counting with the given tokenizer', () => {
    const ranked = [cand(1, 10), cand(2, 9), cand(3, 9), cand(4, 9)];
    const cost = estimateTokens(ranked[0]!.text) + 8;
    const chosen = choosePassages(ranked, [], cost * 2 + 1, estimateTokens);
    expect(chosen.map((c) => c.index)).toEqual([1, 2]);
  });

  it('adds the text around the top passage with what is left, only from the same place', () => {
    const ranked = [cand(5, 10, 'top '.repeat(30), 'Page 3')];
    const neighbours = [
      cand(4, 0, 'before '.repeat(30), 'Page 3'),
      cand(6, 0, 'after '.repeat(30), 'Page 3'),
    ];
    expect(choosePassages(ranked, neighbours, 10_000, estimateTokens).map((c) => c.index)).toEqual([
      4, 5, 6,
    ]);
    const tight = estimateTokens(ranked[0]!.text) + 8;
    expect(choosePassages(ranked, neighbours, tight, estimateTokens).map((c) => c.index)).toEqual([
      5,
    ]);
  });

  it("takes a passage's neighbours right after it, before the passages ranked below it", () => {
    // Room for three passages: the top one's neighbour comes before the second best.
    const ranked = [cand(5, 10, 'tops '.repeat(30), 'Page 3'), cand(9, 9, 'next '.repeat(30))];
    const neighbours = [cand(6, 0, 'afts '.repeat(30), 'Page 3')];
    const each = estimateTokens(ranked[0]!.text) + 8;
    const chosen = choosePassages(ranked, neighbours, each * 2 + 1, estimateTokens);
    expect(chosen.map((c) => c.index)).toEqual([5, 6]);
  });

  it('joins passages that follow each other in one place into one excerpt, as written', () => {
    const at = (index: number, text: string, ref: string, extra: Partial<Candidate> = {}) => ({
      ...cand(index, 1, text, ref),
      ...extra,
    });
    const excerpts = joinAdjacent([
      at(1, 'It rose 28.5', 'Paragraph 1'),
      at(2, '°E.', 'Paragraph 1', { joins: '' }),
      at(3, 'Then it fell.', 'Paragraph 1', { joins: ' ' }),
      at(4, '其后又应用了。', 'Page 2', { joins: '' }),
      at(5, 'A paragraph of its own on the page.', 'Page 2'), // chunking says none: a new one
      at(7, 'Far away.', 'Page 2'), // not next to the one before
      at(8, 'Stored.', 'Page 3', { start: 0, end: 7 }),
      at(9, 'One apart.', 'Page 3', { start: 8, end: 18 }),
      at(10, '紧接着。', 'Page 3', { start: 18, end: 22 }),
      at(11, 'Two apart.', 'Page 3', { start: 24, end: 34 }),
    ]);
    expect(excerpts).toEqual([
      { ref: 'Paragraph 1', text: 'It rose 28.5°E. Then it fell.' },
      { ref: 'Page 2', text: '其后又应用了。\n\nA paragraph of its own on the page.' },
      { ref: 'Page 2', text: 'Far away.' },
      { ref: 'Page 3', text: 'Stored. One apart.紧接着。\n\nTwo apart.' },
    ]);
  });

  it('gives a quarter of the context by default: small on the embedded engine, more on a server', () => {
    expect(defaultPassageTokens(4096)).toBe(1024);
    expect(defaultPassageTokens(8192)).toBe(2048);
    expect(defaultPassageTokens(131072)).toBe(4096);
    expect(defaultPassageTokens(1024)).toBe(512);
  });
});

describe('the passage index of a file', () => {
  const units: TextUnit[] = [
    {
      kind: 'paragraph',
      label: 'Text',
      text: 'The keeper fed the cat.\n\nThe lighthouse budget rose by twelve percent.\n\nThe tide was low.',
    },
  ];

  it('is built once, in a worker, and found again by its key for the next question', async () => {
    let loads = 0;
    const source = { key: `test:${Math.random()}`, load: async () => (loads++, units) };
    const first = await searchSource(source, 'How much did the lighthouse budget rise?', 5);
    expect(first.ranked[0]!.text).toContain('twelve percent');
    expect(first.language).toBe('en');
    const second = await searchSource(source, 'What did the keeper feed?', 5);
    expect(second.ranked[0]!.text).toContain('cat');
    expect(loads).toBe(1);
  });

  it('is not built for a question cancelled while its text was read', async () => {
    const cancel = new AbortController();
    let loads = 0;
    const source = {
      key: `test:${Math.random()}`,
      load: async () => {
        loads++;
        cancel.abort(new Error('the job was cancelled'));
        return units;
      },
    };
    const asked = searchSource(source, 'What did the keeper feed?', 5, undefined, cancel.signal);
    await expect(asked).rejects.toThrow('the job was cancelled');
    // Nothing was built: the next question reads the text again, and builds it.
    await searchSource(source, 'What did the keeper feed?', 5);
    expect(loads).toBe(2);
  });

  it('goes with the cached text: a stored file’s key names the reader version', () => {
    expect(storedFileKey(42)).toMatch(/^file:42:reader\d+$/);
  });
});
