/**
 * Whether poppler's text of a page can be trusted without knowing what the page says. Poppler and
 * pdf.js fail differently: a font whose ToUnicode map is wrong comes out of poppler as runs of
 * IPA, Greek-sign or control characters where pdf.js, which falls back to the glyph names, may
 * find the digits; text without word spacing comes out letter by letter, rotated text in
 * fragments, and some pages of labels hardly at all. On the real-world corpus
 * (bench/pdf-corpus.bench.ts) these were most of the pages pdf.js read better; such a page is
 * read by pdf.js as before (pdf-text.ts).
 */

/**
 * Characters that real text hardly ever holds, but broken fonts yield: controls, Latin
 * Extended-B, IPA and spacing modifiers, Greek signs outside the alphabet (U+0370–U+0385), the
 * private use area and the replacement character. (Romanian, Vietnamese and Pinyin use a few of
 * Latin Extended-B: their pages are read by pdf.js, as before, only not faster.)
 */
const ODD =
  // eslint-disable-next-line no-control-regex -- control characters are what it looks for
  /[\u0000-\u0008\u000e-\u001f\u007f-\u009f\u0180-\u02ff\u0370-\u0385\ue000-\uf8ff\ufffd]/u;
const ODD_ALL = new RegExp(ODD.source, 'gu');
/**
 * Symbols of Windows-1252's extra range (per mille, bullet, trade mark, daggers, angle quotes)
 * inside a word, next to a letter or to one another: a font whose encoding poppler misses turns
 * accented letters into them ("àâçé" read as "ˆ‰•Ž"), where real text sets them apart.
 */
const SYMBOLS = '\\u2030\\u2022\\u2122\\u2020\\u2021\\u2039\\u203a';
const IN_WORD_SYMBOL = new RegExp(
  `(?<=[\\p{L}${SYMBOLS}])[${SYMBOLS}]|[${SYMBOLS}](?=\\p{L})`,
  'gu',
);

/** Soft hyphens (U+00AD): invisible, and one at a line's end joins the word broken there. */
export function withoutSoftHyphens(text: string): string {
  return text.replace(/\u00ad(?:[ \t]*\n[ \t]*)?/g, '');
}

/**
 * True when poppler's reading of a page is worth checking against pdf.js's: odd characters of a
 * broken font or a missed encoding, words spaced out letter by letter or cut in fragments
 * (rotated or spaced text), or hardly any text (a page of labels, or text poppler missed).
 */
export function looksDoubtful(text: string): boolean {
  const visible = text.replace(/\s+/g, '');
  if (visible.length < 50) return true;
  const odd = (visible.match(ODD_ALL)?.length ?? 0) + (text.match(IN_WORD_SYMBOL)?.length ?? 0);
  if (odd >= 3 && odd / visible.length > 0.01) return true;
  // Letters only: page numbers and a formula's indices and variables are short by nature (on a
  // page of mathematics or an index half the words are), rotated or spaced-out text nearly all.
  const words = text.match(/\p{L}+/gu) ?? [];
  const short = words.filter((w) => w.length <= 2).length;
  return words.length >= 8 && short / words.length > 0.8;
}
