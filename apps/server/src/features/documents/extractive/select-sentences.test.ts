import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../../ai';
import { documentPieces, packChunks } from '../chunking';
import type { TextUnit } from '../../files';
import { selectSentences } from './select-sentences';

const count = estimateTokens;
const TOPICS = ['lamp', 'tide', 'storm', 'harbour', 'ledger', 'engine', 'signal', 'cargo'];

/** Sentence k of page p: about the page's topic, and carrying its own id `p{p}s{k}`. */
const sentence = (p: number, k: number) =>
  `The keeper noted the ${TOPICS[p % TOPICS.length]} again in entry p${p}s${k}, ` +
  `with ${TOPICS[(p + k) % TOPICS.length]} details for the record.`;

const pages = (n: number, perPage: number): TextUnit[] =>
  Array.from({ length: n }, (_, p) => ({
    kind: 'page',
    label: `Page ${p + 1}`,
    text: Array.from({ length: perPage }, (_, k) => sentence(p, k)).join(' '),
  }));

/** The `p{p}s{k}` ids in the kept text, in the order they appear. */
const idsOf = (text: string) => [...text.matchAll(/p(\d+)s(\d+)/g)].map((m) => [+m[1]!, +m[2]!]);

const tokensToModel = (pieces: { text: string }[]) =>
  pieces.reduce((s, p) => s + count(p.text) + 1, 0);

describe('selectSentences', () => {
  it('leaves a document within the budget whole', () => {
    const units = pages(3, 4);
    const sel = selectSentences(units, 10_000, count);
    expect(sel.reduced).toBe(false);
    expect(sel.pieces).toEqual(documentPieces(units));
    expect(sel).toMatchObject({ sections: 3, sectionsKept: 3 });
  });

  it('keeps every page, within the budget, in the original order, under the same labels', () => {
    const units = pages(40, 30);
    const budget = 2_000;
    const sel = selectSentences(units, budget, count);
    expect(sel.reduced).toBe(true);
    expect(sel.documentTokens).toBeGreaterThan(10 * budget);
    expect(sel.selectedTokens).toBeLessThanOrEqual(budget);
    expect(sel.selectedTokens).toBeGreaterThan(budget * 0.9); // the budget is used, not wasted
    expect(tokensToModel(sel.pieces)).toBeLessThanOrEqual(budget);
    expect(sel).toMatchObject({ sections: 40, sectionsKept: 40 });

    expect(sel.pieces.map((p) => p.label)).toEqual(units.map((u) => u.label));
    sel.pieces.forEach((piece, p) => {
      const ids = idsOf(piece.text);
      expect(ids.length).toBeGreaterThan(0);
      for (const [page] of ids) expect(page).toBe(p); // a page's sentences stay under its label
      // Whole sentences of the page, in their order.
      for (let i = 1; i < ids.length; i++) expect(ids[i]![1]).toBeGreaterThan(ids[i - 1]![1]!);
      for (const [pg, k] of ids) expect(piece.text).toContain(sentence(pg!, k!));
    });
    // What the model reads fits the same budget once chunked.
    const chunks = packChunks(sel.pieces, 700, count);
    expect(chunks.reduce((s, c) => s + c.tokens, 0)).toBeLessThanOrEqual(budget);
  });

  it('keeps a short page among long ones, though its share of the budget is tiny', () => {
    const units = pages(30, 40);
    units[7] = {
      ...units[7]!,
      text: 'Page seven holds a single short remark about a visiting gull.',
    };
    const sel = selectSentences(units, 1_500, count);
    expect(sel).toMatchObject({ sections: 30, sectionsKept: 30 });
    expect(sel.pieces[7]).toEqual({ text: units[7]!.text, label: 'Page 8', boundary: true });
    expect(tokensToModel(sel.pieces)).toBeLessThanOrEqual(1_500);
  });

  it('keeps the most central sentence of a section and drops its outlier', () => {
    const section = [
      'The lighthouse lamp was cleaned and the lighthouse lamp was lit at dusk.',
      'Ships saw the lighthouse lamp from the bay.',
      'The bakery sold forty loaves of rye bread on Tuesday.',
      'The keeper trimmed the lighthouse lamp wick before the storm.',
    ].join(' ');
    const filler = Array.from({ length: 5 }, (_, p) => ({
      kind: 'page' as const,
      label: `Page ${p + 2}`,
      text: Array.from({ length: 12 }, (_, k) => sentence(p, k)).join(' '),
    }));
    const units: TextUnit[] = [{ kind: 'page', label: 'Page 1', text: section }, ...filler];
    const sel = selectSentences(units, 200, count);
    const page1 = sel.pieces.find((p) => p.label === 'Page 1')!.text;
    expect(page1).toContain('The lighthouse lamp was cleaned');
    expect(page1).not.toContain('bakery');
  });

  it('gives every headed part of a docx its heading and its own sentences', () => {
    const units: TextUnit[] = [];
    for (let c = 0; c < 12; c++) {
      units.push({
        kind: 'paragraph',
        label: `Paragraph ${units.length + 1}`,
        text: `Chapter ${c}`,
      });
      for (let k = 0; k < 8; k++) {
        const text = `${sentence(c, 2 * k)} ${sentence(c, 2 * k + 1)}`;
        units.push({ kind: 'paragraph', label: `Paragraph ${units.length + 1}`, text });
      }
    }
    const sel = selectSentences(units, 600, count);
    expect(sel).toMatchObject({ reduced: true, sections: 12, sectionsKept: 12 });
    expect(tokensToModel(sel.pieces)).toBeLessThanOrEqual(600);
    for (let c = 0; c < 12; c++) {
      const at = sel.pieces.findIndex((p) => p.text === `Chapter ${c}`);
      expect(at, `heading ${c}`).toBeGreaterThanOrEqual(0);
      expect(sel.pieces[at]!.boundary).toBe(true);
      expect(idsOf(sel.pieces[at + 1]!.text)[0]![0]).toBe(c); // followed by its own text
    }
    // Labels are the original paragraphs'.
    const labels = new Set(units.map((u) => u.label));
    for (const p of sel.pieces) expect(labels.has(p.label)).toBe(true);
  });

  it('keeps a sheet’s header row and whole rows under their row labels', () => {
    const rows = [['id', 'comment', 'rating']];
    for (let r = 0; r < 300; r++) {
      rows.push([`${r}`, `Row r${r}. The ${TOPICS[r % 8]} was fine. Really.`, `${r % 5}`]);
    }
    const units: TextUnit[] = [{ kind: 'sheet', label: 'Reviews', text: '', rows }];
    const sel = selectSentences(units, 800, count);
    expect(sel.pieces[0]).toEqual({
      text: 'id | comment | rating',
      label: 'Reviews row 1',
      boundary: true,
    });
    const full = new Map(documentPieces(units).map((p) => [p.label, p.text]));
    expect(sel.pieces.length).toBeGreaterThan(5);
    for (const p of sel.pieces) expect(p.text).toBe(full.get(p.label));
    expect(tokensToModel(sel.pieces)).toBeLessThanOrEqual(800);
  });

  it('covers a long text without headings from start to end', () => {
    const paragraphs = Array.from({ length: 400 }, (_, p) => `${sentence(p, 0)} ${sentence(p, 1)}`);
    const units: TextUnit[] = [{ kind: 'paragraph', label: 'Text', text: paragraphs.join('\n\n') }];
    const sel = selectSentences(units, 2_000, count);
    expect(sel.reduced).toBe(true);
    const kept = sel.pieces.flatMap((p) => idsOf(p.text).map(([page]) => page!));
    for (let tenth = 0; tenth < 10; tenth++) {
      expect(
        kept.some((p) => Math.floor(p / 40) === tenth),
        `tenth ${tenth}`,
      ).toBe(true);
    }
    expect([...kept].sort((a, b) => a - b)).toEqual(kept);
  });

  it('still hears every page when one best sentence per page exceeds the budget', () => {
    const long = (p: number) =>
      `On page ${p} the keeper wrote a very long account of the ${TOPICS[p % 8]}, the weather, ` +
      `the passing ships, the lamp oil, the visitors and everything else at great length.`;
    const units: TextUnit[] = Array.from({ length: 60 }, (_, p) => ({
      kind: 'page',
      label: `Page ${p + 1}`,
      text: `${long(p)} ${long(p)} Page ${p} short note. ${long(p)}`,
    }));
    const budget = 60 * 12;
    const sel = selectSentences(units, budget, count);
    expect(sel).toMatchObject({ sections: 60, sectionsKept: 60 });
    expect(tokensToModel(sel.pieces)).toBeLessThanOrEqual(budget);
  });

  it('stays within the budget in the model’s own tokens when length is a poor guide', () => {
    // A tokenizer that spends a token on every digit: number-heavy sentences cost far more than
    // their share of their page's length, so the estimate is low and the kept text is trimmed.
    const digitHeavy = (t: string) => t.split(/\s+/).length + (t.match(/\d/g)?.length ?? 0) * 3;
    const units: TextUnit[] = Array.from({ length: 20 }, (_, p) => ({
      kind: 'page',
      label: `Page ${p + 1}`,
      text: Array.from({ length: 12 }, (_, k) =>
        k % 2
          ? `Readings 4711 0815 9921 3344 5566 7788 in entry p${p}s${k} of the lamp log.`
          : `The keeper wrote a long and wordy line about the lamp in entry p${p}s${k} today.`,
      ).join(' '),
    }));
    const budget = 900;
    const sel = selectSentences(units, budget, digitHeavy);
    expect(sel.reduced).toBe(true);
    const exact = sel.pieces.reduce((s, p) => s + digitHeavy(p.text) + 1, 0);
    expect(exact).toBeLessThanOrEqual(budget);
    expect(sel.selectedTokens).toBe(exact);
    expect(sel.sectionsKept).toBe(20);
  });

  it('stays within the budget when joined sentences count more than apart', () => {
    // A tokenizer whose count grows faster than the text: a piece of several sentences costs
    // more than its sentences one by one, so the joined text has to be counted and trimmed.
    const convex = (t: string) => Math.ceil(t.length ** 1.25 / 12);
    const units = pages(20, 12);
    const sel = selectSentences(units, 1_200, convex);
    const exact = sel.pieces.reduce((s, p) => s + convex(p.text) + 1, 0);
    expect(exact).toBeLessThanOrEqual(1_200);
    expect(exact).toBeGreaterThan(1_200 * 0.7);
    expect(sel.selectedTokens).toBe(exact);
    expect(sel.sectionsKept).toBe(20);
  });

  it('gives the same selection every time', () => {
    const units = pages(20, 20);
    expect(selectSentences(units, 1_000, count)).toEqual(selectSentences(units, 1_000, count));
  });
});
