import JSZip from 'jszip';
import PDFDocument from 'pdfkit';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { readDocx } from './docx';
import { encodeGrayPng, toGray, type GrayImage } from './gray-image';
import { recognize, recognizeEncoded } from './ocr';
import { MAX_OCR_PIXELS } from './ocr-image-limit';
import { readPdf } from './pdf';
import { drawText } from './scan-fixtures';
import { makeDocx } from './test-fixtures';
import { DEFAULT_LIMITS } from './types';

// Tesseract is replaced by spies: what is asked of it is the point here (ocr.test.ts reads real
// scans). toGray is spied on to see which pixels pdf.js handed over, that is, decoded.
vi.mock(import('./ocr'), () => ({
  recognize: vi.fn(() => Promise.resolve('READ BY OCR')),
  recognizeEncoded: vi.fn(() => Promise.resolve('READ BY OCR')),
  stopOcr: vi.fn(() => Promise.resolve()),
}));
vi.mock(import('./gray-image'), async (importOriginal) => {
  const actual = await importOriginal();
  return { ...actual, toGray: vi.fn(actual.toGray) };
});

const white = (width: number, height: number): GrayImage => ({
  width,
  height,
  pixels: new Uint8Array(width * height).fill(255),
});
/** Just over the limit: 6,709 pixels square. A white PNG of it is some 200 KB. */
const SIDE = Math.floor(Math.sqrt(MAX_OCR_PIXELS)) + 1;
const oversized = () => encodeGrayPng(white(SIDE, SIDE), 1);

/** A pdf of one image a page, the whole page, with no text layer (a scanner's). */
async function pdfOfImages(images: Buffer[]): Promise<Buffer> {
  const doc = new PDFDocument({ autoFirstPage: false, compress: true });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  for (const png of images) doc.addPage({ size: 'A4', margin: 0 }).image(png, 0, 0, { width: 595 });
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

describe('images too large for OCR are skipped before they are decoded', () => {
  beforeEach(() => vi.clearAllMocks());

  it('a pdf: pdf.js never decodes the oversized image, and a 600 dpi A4 scan is still read', async () => {
    const bytes = await pdfOfImages([
      encodeGrayPng(drawText(['HELLO WORLD'])),
      encodeGrayPng(white(4960, 7016), 1), // A4 at 600 dpi: 35M pixels
      oversized(),
    ]);
    expect(bytes.length).toBeLessThan(500_000);
    const r = await readPdf(bytes, DEFAULT_LIMITS);
    expect(r.units.map((u) => [u.label, u.text, u.ocr ?? false])).toEqual([
      ['Page 1', 'READ BY OCR', true],
      ['Page 2', 'READ BY OCR', true],
      ['Page 3', '', false],
    ]);
    expect(recognize).toHaveBeenCalledTimes(2);
    const handedOver = vi.mocked(toGray).mock.calls.map(([image]) => image.width * image.height);
    expect(handedOver).toHaveLength(2);
    expect(Math.max(...handedOver)).toBe(4960 * 7016);
  });

  it('a docx: tesseract is never given the oversized picture, and the result says truncated', async () => {
    const small = encodeGrayPng(drawText(['HELLO WORLD']));
    const zip = await JSZip.loadAsync(await makeDocx([]));
    zip.file('word/media/image1.png', oversized());
    zip.file('word/media/image2.png', small);
    const docx = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    expect(docx.length).toBeLessThan(100_000);
    const r = await readDocx(docx, DEFAULT_LIMITS);
    expect(recognizeEncoded).toHaveBeenCalledTimes(1);
    expect(Buffer.from(vi.mocked(recognizeEncoded).mock.calls[0]![0]).equals(small)).toBe(true);
    expect(r.units).toEqual([
      { kind: 'paragraph', label: 'Image 2', text: 'READ BY OCR', ocr: true },
    ]);
    expect(r.truncated).toBe(true);
    expect(r.timedOut).toBeUndefined();
  });

  it('a docx: a picture whose size its header does not tell is not given to tesseract', async () => {
    const zip = await JSZip.loadAsync(await makeDocx([]));
    zip.file('word/media/image1.png', Buffer.from('not a picture at all, whatever its name says'));
    const docx = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    const r = await readDocx(docx, DEFAULT_LIMITS);
    expect(recognizeEncoded).not.toHaveBeenCalled();
    expect(r).toMatchObject({ text: '', truncated: false });
  });
});
