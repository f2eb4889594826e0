import { describe, expect, it } from 'vitest';
import type { Hit } from './knowledge.repo';
import { asExcerpts, chooseSources, withNeighbours } from './select-sources';

const hit = (file_id: number, ord: number, score: number, language = 'de', ref = 'Text'): Hit => ({
  file_id,
  ord,
  score,
  language,
  ref,
  char_start: 0,
  char_end: 0,
  text: `passage ${file_id}:${ord}`,
  file_name: `f${file_id}.txt`,
});
const count = () => 10;
const places = (xs: { file_id: number; ord: number }[]) => xs.map((x) => `${x.file_id}:${x.ord}`);

describe('sources across files', () => {
  it("counts a passage in another language than the question's at half its score", () => {
    // File 2's language was misread as Spanish: its words still match, well above the rest.
    const hits = [hit(1, 0, 10), hit(2, 3, 25, 'es'), hit(3, 1, 9)];
    expect(places(chooseSources(hits, 'de', 1000, count).picked)).toEqual(['2:3', '1:0', '3:1']);
    // Under twice the score, the question's language comes first.
    const close = [hit(1, 0, 10), hit(2, 3, 18, 'es')];
    expect(places(chooseSources(close, 'de', 1000, count).picked)).toEqual(['1:0', '2:3']);
    // No favoured language (the question's is none of the files'): by score alone.
    expect(places(chooseSources(close, '', 1000, count).picked)).toEqual(['2:3', '1:0']);
  });

  it('keeps passages within half of the best score, by score, within the budget', () => {
    const hits = [hit(1, 0, 10), hit(1, 1, 9), hit(2, 0, 6), hit(3, 0, 4.9), hit(4, 0, 3)];
    expect(places(chooseSources(hits, 'de', 1000, count).picked)).toEqual(['1:0', '1:1', '2:0']);
    // Each costs 10 tokens and 16 of overhead: two fit in 60.
    const tight = chooseSources(hits, 'de', 60, count);
    expect(places(tight.picked)).toEqual(['1:0', '1:1']);
    expect(tight.used).toBe(52);
  });

  it("leaves room for other files' passages before a file's fourth", () => {
    const hits = [9, 8.5, 8, 7.5, 7].map((score, ord) => hit(1, ord, score));
    hits.push(hit(2, 0, 6));
    // Room for four passages (26 tokens each): file 2's comes before file 1's fourth.
    expect(places(chooseSources(hits, 'de', 104, count).picked)).toEqual([
      '1:0',
      '1:1',
      '1:2',
      '2:0',
    ]);
    // With room for all, every passage is in, the deferred ones last.
    expect(places(chooseSources(hits, 'de', 1000, count).picked)).toEqual([
      '1:0',
      '1:1',
      '1:2',
      '2:0',
      '1:3',
      '1:4',
    ]);
  });

  it('adds the neighbours of the first three passages next to each, as the budget allows', () => {
    const picked = [hit(1, 5, 10), hit(2, 0, 8), hit(3, 4, 7), hit(4, 2, 6)];
    const near = [
      hit(1, 4, 0),
      hit(1, 6, 0),
      hit(2, 1, 0),
      hit(3, 3, 0, 'de', 'Paragraph 2'), // another place: not joined
      hit(3, 5, 0),
      hit(4, 3, 0), // the fourth pick's: not fetched for
    ];
    const all = withNeighbours(picked, near, 1000, 0, count);
    expect(places(all)).toEqual(['1:4', '1:5', '1:6', '2:0', '2:1', '3:4', '3:5', '4:2']);
    // The best passage's neighbours first when the budget is short.
    expect(places(withNeighbours(picked, near, 52, 0, count))).toEqual([
      '1:4',
      '1:5',
      '1:6',
      '2:0',
      '3:4',
      '4:2',
    ]);
  });

  it("gives each file's passages together, those that follow each other as one excerpt", () => {
    const at = (file_id: number, ord: number, score: number, text: string, start: number) => ({
      ...hit(file_id, ord, score, 'de', 'Paragraph 1'),
      text,
      char_start: start,
      char_end: start + text.length,
    });
    const excerpts = asExcerpts([
      at(2, 4, 9, 'Zwei.', 40),
      at(1, 0, 8, 'Eins.', 0),
      at(2, 3, 0, 'Vor zwei.', 30), // a neighbour, one space before the next
      at(2, 5, 0, '第三。', 45), // no space between in the text
      at(2, 9, 7, 'Fern.', 90),
    ]);
    expect(excerpts.map((e) => [e.file_id, e.ord, e.text, e.char_start, e.char_end])).toEqual([
      [2, 3, 'Vor zwei. Zwei.第三。', 30, 48],
      [2, 9, 'Fern.', 90, 95],
      [1, 0, 'Eins.', 0, 5],
    ]);
    expect(excerpts[0]!.score).toBe(9);
  });
});
