import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { extractText } from './index';
import { declareSize, makeDocx, makePptx, makeXlsx, repack } from './test-fixtures';

// Documents as people have them: the shapes that real Office files and text files take.
describe('extractText on real-world shapes', () => {
  it.each(['STORE', 'DEFLATE'] as const)(
    'reads docx, xlsx and pptx holding %s entries and a stored thumbnail',
    async (compression) => {
      const docx = await repack(await makeDocx(['Stored paragraph']), compression);
      expect((await extractText({ type: 'docx', bytes: docx })).text).toContain('Stored paragraph');
      const xlsx = await repack(await makeXlsx({ S: [['stored cell']] }), compression);
      expect((await extractText({ type: 'xlsx', bytes: xlsx })).text).toBe('stored cell');
      const pptx = await repack(await makePptx([['Stored slide']]), compression);
      expect((await extractText({ type: 'pptx', bytes: pptx })).text).toBe('Stored slide');
    },
  );

  it('caps stored entries like inflated ones (zip bomb)', async () => {
    const docx = await repack(await makeDocx(['x']), 'STORE');
    const zip = await JSZip.loadAsync(docx);
    zip.file('word/media/big.bin', Buffer.alloc(2 * 1024 * 1024), { compression: 'STORE' });
    const bytes = await zip.generateAsync({ type: 'nodebuffer' });
    // Once by the declared sizes, once by counting the bytes when the headers lie.
    for (const b of [bytes, declareSize(bytes, 'word/media/big.bin', 10)]) {
      await expect(
        extractText({ type: 'docx', bytes: b }, { maxDecompressedBytes: 1024 * 1024 }),
      ).rejects.toThrow(/could not read this file: .*zip bomb/);
    }
  });
});
