import type PdfKit from 'pdfkit';
import { lazyRequire } from '../../lib/lazy-require';
import { breakLongWords } from './long-words';
import { availableFonts } from './pdf-fonts';

// Loaded at the first pdf download (a tenth of a second), by the CPU pool's worker only.
const pdfkit = lazyRequire<typeof PdfKit>('pdfkit');

/** Letters of right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, their presentation forms). */
export const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/u;

/** pdfkit's embedded font object, to ask whether a font has a glyph (not in its public types). */
interface FontWithGlyphs {
  font?: { hasGlyphForCodePoint?: (cp: number) => boolean };
}

/** The text as an A4 pdf with its glyphs embedded (pdf-fonts.ts); text stays extractable. */
export async function toPdf(text: string): Promise<Buffer> {
  const PDFDocument = pdfkit();
  // pdfkit's font layout cache (fontLayoutCache) stays on: with over-long words cut first, it
  // holds each distinct word once (500,000 random letters: the same 180 MB either way), and
  // without it half a million characters took 2 to 7 times as long.
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: 'Inkwell response' } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  const fonts: { name: string; has: (cp: number) => boolean }[] = [];
  availableFonts().forEach((f, i) => {
    const name = `f${i}`;
    try {
      doc.registerFont(name, f.path, f.family as string);
      doc.font(name);
      const inner = (doc as unknown as { _font?: FontWithGlyphs })._font?.font;
      const has = inner?.hasGlyphForCodePoint?.bind(inner);
      if (has) fonts.push({ name, has });
    } catch {
      // An unreadable font file is skipped; the next one (or Helvetica) is used.
    }
  });
  const pick = (cp: number) => {
    if (cp < 0x80) return fonts[0]?.name ?? 'Helvetica';
    return fonts.find((f) => f.has(cp))?.name;
  };

  let missing = false;
  const fontFor = (cp: number) => {
    const name = pick(cp);
    if (!name) missing = true;
    return name ?? fonts[0]?.name ?? 'Helvetica';
  };
  const draw = (line: string, align: 'left' | 'right') => {
    const runs = fontRuns(line, fontFor);
    if (runs.length === 0) doc.font(fonts[0]?.name ?? 'Helvetica').text(' ', { align });
    runs.forEach((r, i) =>
      doc.font(r.font).text(r.text, { continued: i < runs.length - 1, align }),
    );
  };
  doc.fontSize(11);
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  const measure = (word: string) => {
    const first = word.codePointAt(0) ?? 32;
    return doc.font(fontFor(first)).widthOfString(word);
  };
  // A text measured as draw() draws it: each run in its own font.
  const drawnWidth = (s: string) =>
    fontRuns(s, fontFor).reduce((w, r) => w + doc.font(r.font).widthOfString(r.text), 0);
  for (const line of text.split(/\r?\n/)) {
    if (!isRtlLine(line)) {
      // Pieces a little short of the line: pdfkit rounds the widths it compares up.
      for (const part of breakLongWords(line, width * 0.99, drawnWidth)) draw(part, 'left');
      continue;
    }
    // pdfkit lays words out left to right and would put each word's space on its wrong side,
    // so a right-to-left line is wrapped here in reading order and its words are placed one by
    // one from the right margin (fontkit shapes and orders the letters inside each word).
    const inOrder = line
      .split(/\s+/)
      .filter(Boolean)
      .flatMap((w) => breakLongWords(w, width * 0.98, measure));
    for (const words of wrapWords(inOrder, width * 0.98, measure)) {
      const lineHeight = doc.currentLineHeight(true);
      if (doc.y + lineHeight > doc.page.height - doc.page.margins.bottom) doc.addPage();
      const y = doc.y;
      let right = doc.page.width - doc.page.margins.right;
      for (const word of visualOrder(words).reverse()) {
        const w = measure(word);
        doc.font(fontFor(word.codePointAt(0) ?? 32)).text(word, right - w, y, { lineBreak: false });
        right -= w + measure(' ');
      }
      doc.x = doc.page.margins.left;
      doc.y = y + lineHeight;
    }
  }
  // Characters no font could draw are still in the file: the exact text rides along as an attachment.
  if (missing) {
    doc.file(Buffer.from(text, 'utf8'), {
      name: 'response.txt',
      type: 'text/plain',
      description: 'The exact text of this document (some characters lack a font here)',
    });
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

/** A line whose first letter belongs to a right-to-left script. */
function isRtlLine(line: string): boolean {
  const first = /\p{L}/u.exec(line);
  return first !== null && RTL.test(first[0]);
}

/** Greedy wrapping of words (in reading order) to lines that fit the width. */
function wrapWords(words: string[], width: number, measure: (w: string) => number): string[][] {
  const lines: string[][] = [];
  let cur: string[] = [];
  let used = 0;
  const space = measure(' ');
  for (const w of words) {
    const wWidth = measure(w);
    if (cur.length && used + space + wWidth > width) {
      lines.push(cur);
      cur = [];
      used = 0;
    }
    used += (cur.length ? space : 0) + wWidth;
    cur.push(w);
  }
  if (cur.length) lines.push(cur);
  return lines;
}

/** Right-to-left words reversed; runs of left-to-right words (Latin, numbers) keep their order. */
export function visualOrder(words: string[]): string[] {
  const groups: string[][] = [];
  for (const w of words) {
    const ltr = !RTL.test(w);
    const last = groups[groups.length - 1];
    if (ltr && last && !RTL.test(last[0]!)) last.push(w);
    else groups.push([w]);
  }
  return groups.reverse().flat();
}

/** Consecutive characters drawn with the same font, as one run each. */
function fontRuns(line: string, fontFor: (cp: number) => string) {
  const runs: { font: string; text: string }[] = [];
  for (const ch of line) {
    const cp = ch.codePointAt(0)!;
    // Spaces and marks join the current run, so a word is not split between fonts.
    const font = /\s/.test(ch) && runs.length ? runs[runs.length - 1]!.font : fontFor(cp);
    const last = runs[runs.length - 1];
    if (last && last.font === font) last.text += ch;
    else runs.push({ font, text: ch });
  }
  return runs;
}
