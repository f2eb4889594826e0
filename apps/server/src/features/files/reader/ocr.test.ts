import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ExtractionPool } from './extraction-pool';
import JSZip from 'jszip';
import { encodeGrayPng } from './gray-image';
import { drawText, makeScannedPdf } from './scan-fixtures';
import { makeDocx, makePptx } from './test-fixtures';
import { tessdataDir } from './ocr';
import { DEFAULT_LIMITS } from './types';

describe('OCR of scanned pdf pages (tesseract.js in the extraction worker)', () => {
  const pool = new ExtractionPool(1);
  afterAll(() => pool.close());

  it('reads a page that is only an image, and marks it as read by OCR', async () => {
    const bytes = await makeScannedPdf([['HELLO WORLD', 'OLD PAPER']]);
    const r = await pool.read('pdf', bytes, DEFAULT_LIMITS);
    expect(r.units).toHaveLength(1);
    expect(r.units[0]).toMatchObject({ kind: 'page', label: 'Page 1', ocr: true });
    expect(r.text).toMatch(/HELLO\s+WORLD/);
    expect(r.text).toMatch(/OLD\s+PAPER/);
    expect(r.truncated).toBe(false);
  });

  it('reads OCR pages beside text pages, marking only the scanned ones', async () => {
    const bytes = await makeScannedPdf(['Typed page', ['COLD STORAGE'], 'Another typed page']);
    const r = await pool.read('pdf', bytes, DEFAULT_LIMITS);
    expect(r.units.map((u) => [u.label, u.ocr ?? false])).toEqual([
      ['Page 1', false],
      ['Page 2', true],
      ['Page 3', false],
    ]);
    expect(r.units[0]?.text).toBe('Typed page');
    expect(r.units[1]?.text).toMatch(/COLD\s+STORAGE/);
  });

  it('reads the first pages of a scan too long for the time limit, and says it was cut short', async () => {
    const dense = Array.from({ length: 20 }, () => 'HELLO WORLD OLD PAPER HELLO WORLD');
    const bytes = await makeScannedPdf(Array.from({ length: 10 }, () => dense));
    // The time limit leaves 2 s for OCR (less its 1 s margin): no machine reads ten such pages in it.
    const r = await pool.read('pdf', bytes, { ...DEFAULT_LIMITS, timeLimitMs: 3000 });
    expect(r.units).toHaveLength(10);
    expect(r.truncated).toBe(true);
    expect(r.units[9]?.text).toBe('');
    // The worker is kept and reads the next document with OCR again.
    const next = await pool.read('pdf', await makeScannedPdf([['COLD STORAGE']]), DEFAULT_LIMITS);
    expect(next.text).toMatch(/COLD\s+STORAGE/);
  });

  /** An Office document with a picture of text in its media folder. */
  const withPicture = async (doc: Buffer, folder: string, lines: string[]) => {
    const zip = await JSZip.loadAsync(doc);
    zip.file(`${folder}image1.png`, encodeGrayPng(drawText(lines)));
    return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
  };

  it('reads the pictures of a docx or pptx that has no text, marking them as read by OCR', async () => {
    const docx = await withPicture(await makeDocx([]), 'word/media/', ['HELLO WORLD']);
    const fromDocx = await pool.read('docx', docx, DEFAULT_LIMITS);
    expect(fromDocx.units).toHaveLength(1);
    expect(fromDocx.units[0]).toMatchObject({ kind: 'paragraph', label: 'Image 1', ocr: true });
    expect(fromDocx.text).toMatch(/HELLO\s+WORLD/);

    const pptx = await withPicture(await makePptx([[]]), 'ppt/media/', ['COLD STORAGE']);
    const fromPptx = await pool.read('pptx', pptx, DEFAULT_LIMITS);
    expect(fromPptx.units[0]).toMatchObject({ kind: 'slide', label: 'Image 1', ocr: true });
    expect(fromPptx.text).toMatch(/COLD\s+STORAGE/);
  });

  it('leaves the pictures of a docx with text alone', async () => {
    const docx = await withPicture(await makeDocx(['Typed words']), 'word/media/', ['HELLO WORLD']);
    const r = await pool.read('docx', docx, DEFAULT_LIMITS);
    expect(r.text).toBe('Typed words');
    expect(r.units.some((u) => u.ocr)).toBe(false);
  });

  it('leaves scanned pages unread when OCR is off', async () => {
    const bytes = await makeScannedPdf([['HELLO WORLD']]);
    const r = await pool.read('pdf', bytes, { ...DEFAULT_LIMITS, ocrLanguages: [] });
    expect(r.text).toBe('');
    expect(r.units[0]?.ocr).toBeUndefined();
  });

  it('answers a language whose traineddata is not installed with a clear error', async () => {
    const bytes = await makeScannedPdf([['HELLO']]);
    await expect(
      pool.read('pdf', bytes, { ...DEFAULT_LIMITS, ocrLanguages: ['xyz'] }),
    ).rejects.toThrow('could not read this file: OCR language "xyz" is not installed');
  });

  it('gathers the traineddata of languages from different packages into one folder', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'inkwell-ocr-test-'));
    try {
      const files = ['eng', 'deu'].map((code) => {
        const file = path.join(root, code, '4.0.0_best_int', `${code}.traineddata.gz`);
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, code);
        return file;
      });
      expect(tessdataDir([files[0]!])).toBe(path.dirname(files[0]!));
      const dir = tessdataDir(files);
      expect(readFileSync(path.join(dir, 'eng.traineddata.gz'), 'utf8')).toBe('eng');
      expect(readFileSync(path.join(dir, 'deu.traineddata.gz'), 'utf8')).toBe('deu');
      rmSync(dir, { recursive: true });
    } finally {
      rmSync(root, { recursive: true });
    }
  });
});
