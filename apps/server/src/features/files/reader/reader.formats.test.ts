import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { extractText } from './index';
import { declareSize, encodeLegacy, makeDocx, makePptx, makeXlsx, repack } from './test-fixtures';

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

  const russian = 'Съешь же ещё этих мягких французских булок, да выпей чаю. Отчёт за 2024 год.';

  it.each(['ibm866', 'windows-1251', 'koi8-r'])('decodes Russian text in %s', async (label) => {
    const bytes = encodeLegacy(`${russian}\r\nВторая строка`, label);
    const r = await extractText({ type: 'txt', bytes });
    expect(r.text).toBe(`${russian}\nВторая строка`);
  });

  it('decodes short Russian words and keeps short Western text in windows-1252', async () => {
    for (const label of ['ibm866', 'windows-1251']) {
      const bytes = encodeLegacy('Привет, мир', label);
      expect((await extractText({ type: 'txt', bytes })).text).toBe('Привет, мир');
    }
    for (const text of [
      'Café crème brûlée à la française, déjà vu',
      'Grüße',
      'Œuvre — “quoted” ‘text’ … €5',
    ]) {
      const bytes = encodeLegacy(text, 'windows-1252');
      expect((await extractText({ type: 'txt', bytes })).text).toBe(text);
    }
  });

  it('decodes a windows-1251 csv', async () => {
    const bytes = encodeLegacy('город,население\nМосква,13000000\nКиев,2900000\n', 'windows-1251');
    const r = await extractText({ type: 'csv', bytes });
    expect(r.units[0]?.rows).toEqual([
      ['город', 'население'],
      ['Москва', '13000000'],
      ['Киев', '2900000'],
    ]);
  });

  it('answers a damaged docx with its own plain message, not the library’s', async () => {
    const zip = await JSZip.loadAsync(await makeDocx(['x']));
    zip.file('word/document.xml', '<w:document><w:body><w:p>');
    const bytes = await zip.generateAsync({ type: 'nodebuffer' });
    await expect(extractText({ type: 'docx', bytes })).rejects.toMatchObject({
      statusCode: 400,
      message: 'could not read this file: the file is damaged (a part of it is not valid XML)',
    });
  });
});
