/**
 * Which column of a table holds the text to analyse: a column whose header names it ("review",
 * "comment", "text", …) wins; otherwise the column with the longest non-numeric cells on average.
 * The first row is a header when its cell in that column is a short label unlike the data below.
 */
const TEXT_HEADER =
  /\b(text|review|reviews|comment|comments|feedback|message|content|description|body|sentence|opinion|response|answer|tweet|post|note|notes)\b/i;

/** True when a header row names a free-text column ("Comment", "Review", …). */
export function hasNamedTextColumn(rows: string[][]): boolean {
  return (rows[0] ?? []).some((h) => TEXT_HEADER.test(h ?? ''));
}

const isNumeric = (s: string) => /^\s*[-+]?[\d.,%$€£\s:/-]+\s*$/.test(s);

export interface TextColumn {
  index: number;
  name: string;
  /** Index of the first data row (1 when row 0 is a header). */
  dataStart: number;
}

export function pickTextColumn(rows: string[][]): TextColumn | null {
  const width = Math.max(0, ...rows.map((r) => r.length));
  if (width === 0) return null;
  const header = rows[0] ?? [];
  const named = header.findIndex((h) => TEXT_HEADER.test(h ?? ''));
  let index = named;
  if (index < 0) {
    let best = -1;
    for (let c = 0; c < width; c++) {
      const cells = rows.slice(1).map((r) => (r[c] ?? '').trim());
      const texts = cells.filter((s) => s && !isNumeric(s));
      if (texts.length === 0) continue;
      // Longer cells and more of them: the free-text column, not an id or a category.
      const avg = texts.reduce((s, t) => s + t.length, 0) / texts.length;
      const value = avg * (texts.length / Math.max(1, cells.length));
      if (value > best) {
        best = value;
        index = c;
      }
    }
    if (index < 0) index = 0;
  }
  const first = (header[index] ?? '').trim();
  const rest = rows
    .slice(1)
    .map((r) => (r[index] ?? '').trim())
    .filter(Boolean);
  const avgRest = rest.reduce((s, t) => s + t.length, 0) / Math.max(1, rest.length);
  const headerLike =
    named >= 0 ||
    (rows.length > 1 &&
      first.length > 0 &&
      !isNumeric(first) &&
      header.every((h) => !h || !isNumeric(h)) &&
      first.length * 2 < avgRest);
  return {
    index,
    name: headerLike ? first : `Column ${index + 1}`,
    dataStart: headerLike ? 1 : 0,
  };
}
