/**
 * Which column of a table holds the text to analyse: the one with the most words per cell, read
 * from the cells, not the header ("CONTENT TYPE" holding "Journals" is a category, the titles
 * beside it are the text). A column whose values repeat (a category) is taken only when no other
 * holds text; a header that names a text column ("Review", "Comment") breaks a tie. The first row
 * is a header when its cell in that column is a short label unlike the data below.
 */
const TEXT_HEADER =
  /\b(text|review|reviews|comment|comments|feedback|message|content|description|body|sentence|opinion|response|answer|tweet|post|note|notes|title)\b/i;

/** True when a header row names a free-text column ("Comment", "Review", …). */
export function hasNamedTextColumn(rows: string[][]): boolean {
  return (rows[0] ?? []).some((h) => TEXT_HEADER.test(h ?? ''));
}

/**
 * A cell of numbers, amounts, dates or times (" 1 000,50 €", "+3", "12:30"): digits and these
 * signs only, one leading "+" allowed. The leading spaces go first and the pattern has one
 * character class and no other quantifier over spaces, so a hostile cell ("1", a million spaces,
 * "x") costs one pass, not a million squared steps on the thread scoring it. Same answers as
 * `^\s*[-+]?[\d.,%$€£\s:/-]+\s*$`, a whitespace-only cell included.
 */
const NUMERIC = /^\+?[\d.,%$€£\s:/-]*$/;
function isNumeric(s: string): boolean {
  const rest = s.trimStart();
  return s !== '' && rest !== '+' && NUMERIC.test(rest);
}
const wordCount = (s: string) => s.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length;
/** A column whose filled cells repeat this much (and at least CATEGORY_MIN_CELLS of them) is a category. */
const CATEGORY_DISTINCT_SHARE = 0.5;
const CATEGORY_MIN_CELLS = 4;

export interface TextColumn {
  index: number;
  name: string;
  /** Index of the first data row (1 when row 0 is a header). */
  dataStart: number;
  /** Every column's name (its header, or "Column n"), for choosing another. */
  names: string[];
}

interface ColumnText {
  index: number;
  wordsPerCell: number;
  category: boolean;
  named: boolean;
}

function measure(rows: string[][], index: number): ColumnText | null {
  const cells = rows.slice(1).map((r) => (r[index] ?? '').trim());
  const texts = cells.filter((s) => s && !isNumeric(s));
  if (texts.length === 0) return null;
  const words = texts.reduce((n, t) => n + wordCount(t), 0);
  return {
    index,
    // Empty and numeric cells count as no words: a column filled with text beats a sparse one.
    wordsPerCell: words / Math.max(1, cells.length),
    category:
      texts.length >= CATEGORY_MIN_CELLS &&
      new Set(texts.map((t) => t.toLowerCase())).size / texts.length <= CATEGORY_DISTINCT_SHARE,
    named: TEXT_HEADER.test(rows[0]?.[index] ?? ''),
  };
}

/** The column with the most words per cell; categories only when nothing else has text. */
function textiest(rows: string[][], width: number): number {
  const measured = Array.from({ length: width }, (_, c) => measure(rows, c)).filter(
    (m): m is ColumnText => m !== null,
  );
  const pool = measured.some((m) => !m.category) ? measured.filter((m) => !m.category) : measured;
  pool.sort(
    (a, b) =>
      b.wordsPerCell - a.wordsPerCell || Number(b.named) - Number(a.named) || a.index - b.index,
  );
  return pool[0]?.index ?? 0;
}

/**
 * The text column of a table: the one named `wanted` (its header or "Column n", in any case),
 * or else the textiest. Null when the table is empty, or has no column named `wanted`.
 */
export function pickTextColumn(rows: string[][], wanted?: string): TextColumn | null {
  const width = Math.max(0, ...rows.map((r) => r.length));
  if (width === 0) return null;
  const header = rows[0] ?? [];
  const best = textiest(rows, width);
  const first = (header[best] ?? '').trim();
  const rest = rows
    .slice(1)
    .map((r) => (r[best] ?? '').trim())
    .filter(Boolean);
  const avgRest = rest.reduce((s, t) => s + t.length, 0) / Math.max(1, rest.length);
  const headerLike =
    TEXT_HEADER.test(first) ||
    (rows.length > 1 &&
      first.length > 0 &&
      !isNumeric(first) &&
      header.every((h) => !h || !isNumeric(h)) &&
      first.length * 2 < avgRest);
  const names = Array.from({ length: width }, (_, c) =>
    headerLike && (header[c] ?? '').trim() ? header[c]!.trim() : `Column ${c + 1}`,
  );
  const index =
    wanted === undefined
      ? best
      : names.findIndex((n) => n.toLowerCase() === wanted.trim().toLowerCase());
  if (index < 0) return null;
  return { index, name: names[index]!, dataStart: headerLike ? 1 : 0, names };
}
