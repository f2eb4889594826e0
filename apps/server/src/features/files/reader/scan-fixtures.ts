import PDFDocument from 'pdfkit';
import { encodeGrayPng, type GrayImage } from './gray-image';

/**
 * "Scanned" test documents: words drawn with a 5×7 bitmap font into a grayscale pixel buffer,
 * encoded as a PNG (gray-image.ts) and placed on a pdf page as its only content (no text layer), the way
 * a scanner's pdf holds one image per page.
 */
const FONT: Record<string, string[]> = {
  A: ['01110', '10001', '10001', '11111', '10001', '10001', '10001'],
  C: ['01110', '10001', '10000', '10000', '10000', '10001', '01110'],
  D: ['11110', '10001', '10001', '10001', '10001', '10001', '11110'],
  E: ['11111', '10000', '10000', '11110', '10000', '10000', '11111'],
  G: ['01110', '10001', '10000', '10111', '10001', '10001', '01111'],
  H: ['10001', '10001', '10001', '11111', '10001', '10001', '10001'],
  L: ['10000', '10000', '10000', '10000', '10000', '10000', '11111'],
  O: ['01110', '10001', '10001', '10001', '10001', '10001', '01110'],
  P: ['11110', '10001', '10001', '11110', '10000', '10000', '10000'],
  R: ['11110', '10001', '10001', '11110', '10100', '10010', '10001'],
  S: ['01111', '10000', '10000', '01110', '00001', '00001', '11110'],
  T: ['11111', '00100', '00100', '00100', '00100', '00100', '00100'],
  W: ['10001', '10001', '10001', '10101', '10101', '10101', '01010'],
  ' ': ['00000', '00000', '00000', '00000', '00000', '00000', '00000'],
};

/** Black lines of text on white, each font dot `scale` pixels square. */
export function drawText(lines: string[], scale = 6): GrayImage {
  const margin = 8 * scale;
  const cols = Math.max(...lines.map((l) => l.length));
  const width = margin * 2 + cols * 6 * scale;
  const height = margin * 2 + lines.length * 10 * scale;
  const pixels = new Uint8Array(width * height).fill(255);
  lines.forEach((line, row) => {
    [...line.toUpperCase()].forEach((ch, col) => {
      const glyph = FONT[ch];
      if (!glyph) throw new Error(`no glyph for ${ch}`);
      glyph.forEach((bits, gy) => {
        [...bits].forEach((bit, gx) => {
          if (bit !== '1') return;
          const x0 = margin + (col * 6 + gx) * scale;
          const y0 = margin + (row * 10 + gy) * scale;
          for (let y = y0; y < y0 + scale; y++)
            pixels.fill(0, y * width + x0, y * width + x0 + scale);
        });
      });
    });
  });
  return { width, height, pixels };
}

/**
 * A pdf of scanned pages: each entry is the lines drawn on an image page, or a string for a page
 * with an ordinary text layer (to mix both in one document).
 */
export async function makeScannedPdf(pages: (string[] | string)[]): Promise<Buffer> {
  const doc = new PDFDocument({ autoFirstPage: false, compress: true });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  for (const page of pages) {
    doc.addPage({ size: 'A4', margin: 36 });
    if (typeof page === 'string') doc.fontSize(14).text(page);
    else doc.image(encodeGrayPng(drawText(page)), 36, 36, { width: 520 });
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}
