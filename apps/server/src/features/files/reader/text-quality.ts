/**
 * Whether poppler's text of a page can be trusted without knowing what the page says. Poppler and
 * pdf.js fail differently: a font whose ToUnicode map is wrong comes out of poppler as runs of
 * IPA, Greek-sign or control characters where pdf.js, which falls back to the glyph names, may
 * find the digits; text without word spacing comes out letter by letter, rotated text in
 * fragments, and some pages of labels hardly at all; a font set in Mac Roman comes out in Latin-1
 * ("beginnerÕs", "¥ Limit 1 voucher"). On the real-world corpus
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

/**
 * Mac Roman read as Latin-1: its right quote (0xD5) as "Õ" inside a word, its bullet (0xA5) as
 * "¥" before a word (a price puts a number after it). Real text sets neither so.
 */
const MAC_ROMAN = /(?<=\p{Ll})[\u00c0-\u00de](?=\p{Ll})|^[ \t]*\u00a5[ \t]+(?=\p{L})/gmu;
/** Enough of them to doubt a page, however long: one is a typo, three a wrong encoding. */
const MAC_ROMAN_SIGNS = 3;

/** Soft hyphens (U+00AD): invisible, and one at a line's end joins the word broken there. */
export function withoutSoftHyphens(text: string): string {
  return text.replace(/\u00ad(?:[ \t]*\n[ \t]*)?/g, '');
}

/**
 * A dotless i or j with an accent on it is an accented i or j: TeX's fonts build "ï" from "ı" and
 * a diaeresis, which poppler passes on as two characters ("naı̈ve", not found by "naïve").
 */
function withDottedAccents(text: string): string {
  return text.replace(/([\u0131\u0237])(\p{M}+)/gu, (_, base: string, marks: string) =>
    ((base === '\u0131' ? 'i' : 'j') + marks).normalize('NFC'),
  );
}

/** A page of poppler's text as it is kept and judged: soft hyphens out, accents on i and j set. */
export function cleanPopplerPage(text: string): string {
  return withDottedAccents(withoutSoftHyphens(text)).trim();
}

/**
 * True when poppler's reading of a page is worth checking against pdf.js's: odd characters of a
 * broken font or a missed encoding (Mac Roman's among them), words spaced out letter by letter or
 * cut in pieces on lines of their own (rotated or spaced text), or hardly any text (a page of
 * labels, or text poppler missed). A page read by pdf.js reads as it did before poppler: on the
 * corpus, each of these signs marked pages poppler read worse.
 */
export function looksDoubtful(text: string): boolean {
  const visible = text.replace(/\s+/g, '');
  if (visible.length < 50) return true;
  const odd = (visible.match(ODD_ALL)?.length ?? 0) + (text.match(IN_WORD_SYMBOL)?.length ?? 0);
  if (odd >= 3 && odd / visible.length > 0.01) return true;
  if ((text.match(MAC_ROMAN)?.length ?? 0) >= MAC_ROMAN_SIGNS) return true;
  return cutInPieces(text) || spacedOut(text);
}

/** Words nearly all of one or two letters: text spaced out letter by letter, or in fragments. */
function spacedOut(text: string): boolean {
  // Letters only: page numbers and a formula's indices and variables are short by nature (on a
  // page of mathematics or an index half the words are), rotated or spaced-out text nearly all.
  const words = text.match(/\p{L}+/gu) ?? [];
  const short = words.filter((w) => w.length <= 2).length;
  return words.length >= 8 && short / words.length > 0.8;
}

/** Pieces on lines of their own, at least this many and this share of the page's lines. */
const MOST_PIECES = 3;
const MOST_PIECES_SHARE = 0.05;

/**
 * Arrows and mathematical operators (⇒ ∈ ⊆ ∞), but for the minus sign and the asterisk operator
 * (U+2212, U+2217) that prose has in numbers and authors' footnote marks.
 */
const MATH_SIGN = /[\u2190-\u21ff\u2200-\u2211\u2213-\u2216\u2218-\u22ff]/u;

/**
 * Lines of one or two characters with a letter among them: the pieces poppler cuts text set at an
 * angle into ("Ma", "y7", "ro", "ta": a chart's axis labels, a rotated box). A page of mathematics
 * has such lines too, a display formula's indices and variables, and is left to poppler: pdf.js
 * keeps an index to its symbol ("S1" where poppler reads "S 1"), but on GeoTopo's book, two thirds
 * of whose pages have such lines, reading them by pdf.js made the book 1.7x slower than poppler for
 * half a percent of its words.
 */
function cutInPieces(text: string): boolean {
  if (MATH_SIGN.test(text)) return false;
  let lines = 0;
  let pieces = 0;
  for (const line of text.split('\n')) {
    const visible = line.replace(/\s+/g, '');
    if (visible === '') continue;
    lines++;
    if (visible.length <= 2 && /\p{L}/u.test(visible)) pieces++;
  }
  return pieces >= MOST_PIECES && pieces / lines >= MOST_PIECES_SHARE;
}
