/** Words up to this many UTF-16 units are left to pdfkit: no font draws them wider than a line. */
const SHORT_WORD = 64;

/** A letter with its combining marks (or marks with no letter), so a cut never parts them. */
const CLUSTER = /\P{M}\p{M}*|\p{M}+/gsu;

/**
 * A line (no line breaks in it) as the lines to draw: each word wider than `maxWidth` cut into
 * pieces that fit, each piece ending its line, the hard break inside an over-long word that any
 * editor makes; nothing is dropped or added. pdfkit would cut such a word itself, but it measures
 * the rest of the word again for every line it fills and its font keeps each measured rest:
 * time and memory grow with the square of the word's length (60,000 letters exhausted the heap).
 * `width` measures a text as it will be drawn: each distinct letter once, then each piece once
 * (never the whole word: fontkit's layout of half a million letters alone took 300 MB).
 */
export function breakLongWords(
  line: string,
  maxWidth: number,
  width: (text: string) => number,
): string[] {
  const lines: string[] = [];
  let start = 0;
  for (const m of line.matchAll(/\S+/g)) {
    const word = m[0];
    if (word.length <= SHORT_WORD) continue;
    const pieces = cutWord(word, maxWidth, width);
    if (pieces.length < 2) continue; // it fits
    // The text before the word stays with its first piece; the last piece keeps what follows.
    const last = pieces.pop()!;
    lines.push(line.slice(start, m.index) + pieces.shift()!, ...pieces);
    start = m.index + word.length - last.length;
  }
  lines.push(line.slice(start));
  return lines;
}

/** An over-long word as pieces no wider than `maxWidth` (at least one letter each). */
function cutWord(word: string, maxWidth: number, width: (text: string) => number): string[] {
  const clusters = word.match(CLUSTER) ?? [word];
  const widths = new Map<string, number>();
  const widthOf = (c: string) => {
    let w = widths.get(c);
    if (w === undefined) widths.set(c, (w = width(c)));
    return w;
  };
  const pieces: string[] = [];
  let i = 0;
  while (i < clusters.length) {
    // Filled by the letters' own widths, then measured whole (kerning may widen it a little).
    let end = i;
    let sum = 0;
    while (end < clusters.length && (end === i || sum + widthOf(clusters[end]!) <= maxWidth))
      sum += widthOf(clusters[end++]!);
    let piece = clusters.slice(i, end).join('');
    while (end - i > 1 && width(piece) > maxWidth) piece = clusters.slice(i, --end).join('');
    pieces.push(piece);
    i = end;
  }
  return pieces;
}
