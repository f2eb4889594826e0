import type { TextUnit } from '../files';

/**
 * Structure-aware chunking: a document is cut into pieces along its own structure (pages, slides,
 * sheets and their rows, paragraphs), pieces too large for the budget are cut at sentences and
 * then words, and consecutive pieces are packed greedily into chunks of at most `budget` tokens.
 * A chunk prefers to end where a page/slide/sheet ends or a heading starts once it is half full,
 * so a summary or a cited passage rarely straddles two pages.
 */
export interface Piece {
  text: string;
  /** Where the piece is, e.g. "Page 3", "Sheet1 row 12", "Paragraph 4". */
  label: string;
  /** True for the first piece of a page, slide or sheet, and for headings. */
  boundary: boolean;
}

export interface Chunk {
  text: string;
  /** Compact reference to cite, e.g. "Page 3–5" or "Sheet1 row 2–40". */
  ref: string;
  tokens: number;
  /**
   * When the chunk goes on with the piece the one before ended in (a paragraph cut at a sentence):
   * the text that stood between them (a space, or nothing after a full-width stop).
   */
  joins?: string;
}

export type CountTokens = (text: string) => number;

const PARAGRAPH_SPLIT = /\n\s*\n/;
const HEADING = /^(#{1,6}\s.*|[^\n.!?:;]{1,80})$/;

/** The document's pieces in reading order, labelled with where they come from. */
export function documentPieces(units: TextUnit[]): Piece[] {
  const pieces: Piece[] = [];
  let paragraphNo = 0;
  for (const unit of units) {
    const start = pieces.length;
    if (unit.kind === 'sheet' || unit.kind === 'row') {
      const rows = unit.rows ?? unit.text.split('\n').map((l) => [l]);
      rows.forEach((row, i) => {
        const text = row.filter((c) => c.trim() !== '').join(' | ');
        if (text) pieces.push({ text, label: `${unit.label} row ${i + 1}`, boundary: false });
      });
    } else if (unit.kind === 'paragraph' && /^Paragraph \d+$/.test(unit.label)) {
      // docx: the reader already gives one unit per paragraph.
      if (unit.text.trim())
        pieces.push({ text: unit.text.trim(), label: unit.label, boundary: false });
    } else {
      const paragraphs = splitParagraphs(unit.text);
      for (const p of paragraphs) {
        const label = unit.kind === 'paragraph' ? `Paragraph ${++paragraphNo}` : unit.label;
        pieces.push({ text: p, label, boundary: HEADING.test(p) && paragraphs.length > 1 });
      }
    }
    if (pieces[start] && unit.kind !== 'paragraph') pieces[start].boundary = true;
  }
  for (const p of pieces)
    if (/^Paragraph \d+$/.test(p.label) && HEADING.test(p.text)) p.boundary = true;
  return pieces;
}

/** Paragraphs of a text: blank-line separated, or line separated when there are no blank lines. */
export function splitParagraphs(text: string): string[] {
  const blocks = text.split(PARAGRAPH_SPLIT);
  const parts = blocks.length > 1 ? blocks : text.split('\n');
  return parts.map((p) => p.trim()).filter(Boolean);
}

/** Cuts one text that is over budget at sentence ends, then at spaces, then anywhere. */
export function splitOversized(text: string, budget: number, count: CountTokens): string[] {
  if (count(text) <= budget) return [text];
  // A sentence ends at a full stop, or at . ! ? before a space or the end: not inside "28.5".
  const sentences = text.match(/(?:[^.!?。！？\n]|[.!?](?![\s.!?]|$))+[.!?。！？]*\s*|\n+/g) ?? [
    text,
  ];
  const out: string[] = [];
  let cur = '';
  let curTokens = 0;
  const flush = () => {
    if (cur.trim()) out.push(cur.trim());
    cur = '';
    curTokens = 0;
  };
  // Counted sentence by sentence (additive, slightly high): re-counting the growing chunk would
  // make a long unbroken text quadratic.
  for (const s of sentences) {
    const t = count(s);
    if (curTokens + t <= budget) {
      cur += s;
      curTokens += t;
      continue;
    }
    flush();
    if (t <= budget) {
      cur = s;
      curTokens = t;
    } else out.push(...hardSplit(s, budget, count));
  }
  flush();
  return out;
}

function hardSplit(text: string, budget: number, count: CountTokens): string[] {
  const out: string[] = [];
  let rest = text.trim();
  while (rest) {
    // Binary search the longest prefix within budget, then back off to a space if there is one.
    // No tokenizer packs more than ~12 characters into a token; bounding the search keeps it cheap.
    let lo = 1;
    let hi = Math.min(rest.length, budget * 12);
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (count(rest.slice(0, mid)) <= budget) lo = mid;
      else hi = mid - 1;
    }
    let cut = lo;
    const space = rest.lastIndexOf(' ', cut);
    if (cut < rest.length && space > cut / 2) cut = space;
    out.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  return out.filter(Boolean);
}

/**
 * Packs pieces into chunks of at most `budget` tokens each, in order. With `oneLabel`, a chunk
 * never mixes pieces of two places (for retrieval, where a passage must cite one page or row).
 */
export function packChunks(
  pieces: Piece[],
  budget: number,
  count: CountTokens,
  opts: { oneLabel?: boolean } = {},
): Chunk[] {
  if (budget < 16) throw new Error(`chunk budget too small: ${budget}`);
  const chunks: Chunk[] = [];
  let texts: string[] = [];
  let labels: string[] = [];
  let tokens = 0;
  let joins: string | undefined;
  const SEP_TOKENS = 1;
  const close = () => {
    if (texts.length)
      chunks.push({
        text: texts.join('\n\n'),
        ref: compactRef(labels),
        tokens,
        ...(joins === undefined ? {} : { joins }),
      });
    texts = [];
    labels = [];
    tokens = 0;
    joins = undefined;
  };
  for (const piece of pieces) {
    // Where the last part ended in the piece's text, to find what stood before the next.
    let end = 0;
    // Counted once: a piece within budget (most) is its own only part.
    const whole = count(piece.text);
    const parts = whole <= budget ? [piece.text] : splitOversized(piece.text, budget, count);
    parts.forEach((part, i) => {
      const at = piece.text.indexOf(part, end);
      const between = at >= end ? piece.text.slice(end, at) : ' ';
      end = at >= 0 ? at + part.length : end;
      const t = (part === piece.text ? whole : count(part)) + SEP_TOKENS;
      const preferBreak =
        (piece.boundary && part === piece.text && tokens >= budget / 2) ||
        (opts.oneLabel === true && labels[labels.length - 1] !== piece.label);
      if (texts.length && (tokens + t > budget || preferBreak)) close();
      if (texts.length === 0 && i > 0) joins = between;
      texts.push(part);
      if (labels[labels.length - 1] !== piece.label) labels.push(piece.label);
      tokens += t;
    });
  }
  close();
  return chunks;
}

/** Chunks of a document for a token budget. */
export function chunkDocument(
  units: TextUnit[],
  budget: number,
  count: CountTokens,
  opts: { oneLabel?: boolean } = {},
): Chunk[] {
  return packChunks(documentPieces(units), budget, count, opts);
}

/** ["Page 3", "Page 4", "Page 5"] → "Page 3–5"; mixed labels → "first – last". */
export function compactRef(labels: string[]): string {
  if (labels.length === 0) return '';
  const first = labels[0]!;
  const last = labels[labels.length - 1]!;
  if (labels.length === 1) return first;
  const a = /^(.*?)(\d+)$/.exec(first);
  const b = /^(.*?)(\d+)$/.exec(last);
  if (a && b && a[1] === b[1]) return `${a[1]}${a[2]}–${b[2]}`;
  return `${first} – ${last}`;
}
