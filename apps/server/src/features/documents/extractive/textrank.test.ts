import { describe, expect, it } from 'vitest';
import { TermIndex } from './terms';
import { DEFAULT_WINDOW, pageRank, rankOrder, similarityGraph, textRank } from './textrank';

const graphOf = (sentences: string[], window: number) => {
  const index = new TermIndex();
  const terms = sentences.map((s) => index.idsOf(s));
  return similarityGraph(terms, index.size, window);
};

const passage = [
  'The lighthouse keeper lit the lamp of the lighthouse at dusk.',
  'Ships passed the lighthouse safely because the keeper kept the lamp burning.',
  'Quarterly revenue of the bakery doubled after the new oven arrived.',
  'Every night the keeper climbed the lighthouse stairs to trim the lamp.',
  'The lamp of the lighthouse could be seen from twenty miles at sea.',
];

const sum = (xs: Float64Array) => xs.reduce((s, x) => s + x, 0);

describe('TermIndex', () => {
  it('drops function words, folds plurals and possessives, and lists each term once', () => {
    const index = new TermIndex();
    const ids = index.idsOf("The keeper's lamps and the Ships' logs were THERE, lamp!");
    expect(ids).toEqual(index.idsOf('keeper lamp ship log'));
    expect(ids).toHaveLength(4);
    expect(index.size).toBe(4);
    expect(index.idsOf('Classes of status, boxes')).toEqual(index.idsOf('class status box'));
  });

  it('compares unspaced scripts by character pairs', () => {
    const index = new TermIndex();
    expect(index.idsOf('灯塔很高')).toEqual([0, 1, 2]);
    expect(index.idsOf('很高的灯塔')).toEqual([2, 3, 4, 0]);
  });
});

describe('textRank', () => {
  it('ranks sentences sharing the passage’s subject above an unrelated one', () => {
    const { scores } = textRank(passage);
    const order = rankOrder(scores);
    expect(order.at(-1)).toBe(2); // the bakery sentence
    for (const i of [0, 1, 3, 4]) expect(scores[i]).toBeGreaterThan(scores[2]! * 2);
    // The sentence sharing the most with the others is the most central.
    expect(order[0]).toBe(0);
  });

  it('gives scores that sum to 1, converge, and are the same on every run', () => {
    const a = textRank(passage);
    const b = textRank([...passage]);
    expect(Array.from(a.scores)).toEqual(Array.from(b.scores));
    expect(sum(a.scores)).toBeCloseTo(1, 12);
    expect(a.iterations).toBeLessThan(200);
    // A fixed point: one more power iteration from the result barely moves it.
    const more = pageRank(graphOf(passage, DEFAULT_WINDOW), {
      maxIterations: a.iterations + 50,
    });
    for (let i = 0; i < passage.length; i++) expect(more.scores[i]).toBeCloseTo(a.scores[i]!, 5);
  });

  it('keeps an isolated sentence in the ranking (its score is shared out, not lost)', () => {
    const { scores } = textRank(['Alpha beta gamma.', 'Alpha beta delta.', 'Zebra yak.']);
    expect(sum(scores)).toBeCloseTo(1, 12);
    expect(scores[2]).toBeGreaterThan(0);
    expect(scores[2]).toBeLessThan(scores[0]!);
  });

  it('breaks ties by position and handles empty and single inputs', () => {
    const same = textRank(['Tide log.', 'Tide log.', 'Tide log.']);
    expect(rankOrder(same.scores)).toEqual([0, 1, 2]);
    expect(Array.from(textRank([]).scores)).toEqual([]);
    expect(Array.from(textRank(['Only one.']).scores)).toEqual([1]);
  });

  it('only links sentences within the window, counted round the ring', () => {
    const sentences = Array.from({ length: 12 }, () => 'Lamp tower keeper.');
    const graph = graphOf(sentences, 2);
    for (let i = 0; i < graph.size; i++) {
      const neighbours = Array.from(graph.to.subarray(graph.start[i], graph.start[i + 1]));
      for (const j of neighbours)
        expect(Math.min(Math.abs(i - j), 12 - Math.abs(i - j))).toBeLessThanOrEqual(2);
      expect(new Set(neighbours).size).toBe(4); // the first and last sentences too
      expect(neighbours).toHaveLength(4);
    }
    const full = graphOf(sentences, 100);
    expect(full.to.length).toBe(12 * 11);
  });

  it('does not favour the middle of a long passage over its ends', () => {
    const sentences = Array.from({ length: 60 }, (_, k) => `The lamp keeper wrote entry e${k}.`);
    const { scores } = textRank(sentences, { window: 5 });
    for (const s of scores) expect(s).toBeCloseTo(1 / 60, 9);
  });

  it('weighs edges by the TF-IDF cosine of the sentences', () => {
    const sentences = [
      'Harbour lamp zephyr.',
      'Harbour lamp zephyr.',
      'Harbour lamp quokka.',
      'Harbour lamp narwhal.',
    ];
    const g = graphOf(sentences, 10);
    const weight = (i: number, j: number) => {
      for (let k = g.start[i]!; k < g.start[i + 1]!; k++) if (g.to[k] === j) return g.weight[k]!;
      return 0;
    };
    // idf = ln(1 + n / df): "harbour" and "lamp" are in all 4, "zephyr" in 2, the others in 1.
    const common = Math.log(2) ** 2;
    const zephyr = Math.log(3) ** 2;
    const rare = Math.log(5) ** 2;
    expect(weight(0, 1)).toBeCloseTo(1, 12);
    const expected02 = (2 * common) / Math.sqrt((2 * common + zephyr) * (2 * common + rare));
    expect(weight(0, 2)).toBeCloseTo(expected02, 12);
    expect(weight(2, 3)).toBeCloseTo((2 * common) / (2 * common + rare), 12);
    expect(weight(2, 0)).toBe(weight(0, 2));
  });
});
