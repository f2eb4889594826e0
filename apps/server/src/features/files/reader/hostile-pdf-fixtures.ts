import { deflateSync } from 'node:zlib';
import PDFDocument from 'pdfkit';

/**
 * A small pdf that is large inside: `pages` pages (each its own object) that all draw one shared
 * content stream of `lines` lines of text, each at its own place on the page. 20,000 pages of one
 * line make a huge page count in about 1 MB; 500 pages of 10,000 lines make some 150 MB of text
 * from a file of a few hundred KB (endless output). Written by hand, with a correct xref table.
 */
const LINE = 'endless words, written again and again on every page of this document';

export function makeLargeInsidePdf(pages: number, lines: number): Buffer {
  const ops = ['BT /F1 0.05 Tf'];
  for (let i = 0; i < lines; i++) {
    const x = 10 + (i % 4) * 150;
    const y = 780 - Math.floor(i / 4) * 0.06;
    ops.push(`1 0 0 1 ${x} ${y.toFixed(2)} Tm (line ${i}: ${LINE}) Tj`);
  }
  ops.push('ET');
  const content = deflateSync(Buffer.from(ops.join('\n')));
  const first = 5; // page objects start here
  const kids = Array.from({ length: pages }, (_, i) => `${first + i} 0 R`).join(' ');
  const objects: (string | Buffer)[][] = [
    ['<< /Type /Catalog /Pages 2 0 R >>'],
    [`<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`],
    ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'],
    [`<< /Length ${content.length} /Filter /FlateDecode >>\nstream\n`, content, '\nendstream'],
  ];
  const page =
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] ' +
    '/Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>';
  for (let i = 0; i < pages; i++) objects.push([page]);

  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  let offset = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(offset);
    const bytes = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`),
      ...body.map((b) => (typeof b === 'string' ? Buffer.from(b) : b)),
      Buffer.from('\nendobj\n'),
    ]);
    parts.push(bytes);
    offset += bytes.length;
  });
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `),
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>`,
    `startxref\n${offset}\n%%EOF\n`,
  ];
  parts.push(Buffer.from(xref.join('\n')));
  return Buffer.concat(parts);
}

/** A pdf locked with a user password: neither reader may open it without. */
export async function makeLockedPdf(text: string): Promise<Buffer> {
  const doc = new PDFDocument({ userPassword: 'secret', pdfVersion: '1.7' });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  doc.text(text);
  doc.end();
  await done;
  return Buffer.concat(chunks);
}
