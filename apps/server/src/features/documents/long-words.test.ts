import { describe, expect, it } from 'vitest';
import { breakLongWords } from './long-words';

/** A width of one unit a letter (two for W), so pieces are easy to count. */
const width = (s: string) => [...s].reduce((w, ch) => w + (ch === 'W' ? 2 : 1), 0);

describe('breaking words longer than a line', () => {
  it('leaves a line of ordinary words whole', () => {
    const line = 'The keeper logged the lamp at dawn, '.repeat(20);
    expect(breakLongWords(line, 40, width)).toEqual([line]);
  });

  it('cuts an over-long word into pieces that fit, keeping what stood around it', () => {
    const word = 'a'.repeat(250);
    const lines = breakLongWords(`see: ${word} and the end`, 100, width);
    expect(lines.join('')).toBe(`see: ${word} and the end`);
    expect(lines).toEqual([
      `see: ${'a'.repeat(100)}`,
      'a'.repeat(100),
      `${'a'.repeat(50)} and the end`,
    ]);
  });

  it('measures each piece whole, as it will be drawn, and never parts a letter from its marks', () => {
    const word = 'Wé'.repeat(60); // é as e and a combining accent
    const decomposed = word.normalize('NFD');
    const lines = breakLongWords(decomposed, 31, width);
    expect(lines.join('')).toBe(decomposed);
    for (const l of lines) {
      expect(width(l)).toBeLessThanOrEqual(31);
      expect(/^\p{M}/u.test(l)).toBe(false);
    }
  });

  it('is linear: a word of half a million letters is measured in pieces, not again and again', () => {
    let measured = 0;
    const counting = (s: string) => {
      measured += s.length;
      return width(s);
    };
    const lines = breakLongWords('a'.repeat(500_000), 480, counting);
    expect(lines).toHaveLength(Math.ceil(500_000 / 480));
    expect(lines.join('')).toHaveLength(500_000);
    // The word once, each piece once, each distinct letter once.
    expect(measured).toBeLessThanOrEqual(2 * 500_000 + 1);
  });
});
