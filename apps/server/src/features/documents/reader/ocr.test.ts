import { afterAll, describe, expect, it } from 'vitest';
import { ExtractionPool } from './extraction-pool';
import { makeScannedPdf } from './scan-fixtures';
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
});
