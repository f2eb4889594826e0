import type * as Docx from 'docx';
import { lazyRequire } from '../../lib/lazy-require';
import { RTL, toPdf } from './export-pdf';

// Loaded at the first docx download (a tenth of a second), by the CPU pool's worker only.
const docx = lazyRequire<typeof Docx>('docx');

/** A format whose file is laid out in the CPU pool (a txt is the text itself). */
export type RenderedFormat = 'docx' | 'pdf';

/**
 * The file's bytes, in their own ArrayBuffer: the CPU pool's worker moves it to the event loop
 * instead of copying it. docx: Word renders any script with its own fonts, right-to-left
 * paragraphs marked as such; pdf: see export-pdf.ts.
 */
export async function renderExport(text: string, format: RenderedFormat): Promise<Uint8Array> {
  const file = format === 'docx' ? await toDocx(text) : await toPdf(text);
  return file.byteOffset === 0 && file.byteLength === file.buffer.byteLength
    ? file
    : new Uint8Array(file);
}

async function toDocx(text: string): Promise<Buffer> {
  const { AlignmentType, Document, Packer, Paragraph, TextRun } = docx();
  const paragraphs = text.split(/\r?\n/).map((line) => {
    const rtl = RTL.test(line);
    return new Paragraph({
      bidirectional: rtl,
      alignment: rtl ? AlignmentType.RIGHT : undefined,
      children: [new TextRun({ text: line, rightToLeft: rtl })],
    });
  });
  return Packer.toBuffer(new Document({ sections: [{ children: paragraphs }] }));
}
