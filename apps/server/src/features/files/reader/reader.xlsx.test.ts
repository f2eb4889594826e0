import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { extractText } from './index';

async function workbook(fill: (ws: ExcelJS.Worksheet, wb: ExcelJS.Workbook) => void) {
  const wb = new ExcelJS.Workbook();
  fill(wb.addWorksheet('S'), wb);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** Rewrites every SpreadsheetML part of an xlsx with an `x:` prefix, as some generators do. */
async function prefixed(bytes: Buffer): Promise<Buffer> {
  const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const zip = await JSZip.loadAsync(bytes);
  for (const name of Object.keys(zip.files).filter((n) => /^xl\/[^/]*(\/[^/]*)?\.xml$/.test(n))) {
    const xml = await zip.file(name)!.async('string');
    if (!xml.includes(`xmlns="${main}"`)) continue;
    zip.file(
      name,
      xml
        .replace(/<(\/?)([A-Za-z][\w.-]*)(?=[\s/>])/g, '<$1x:$2')
        .replace(`xmlns="${main}"`, `xmlns:x="${main}"`),
    );
  }
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

describe('xlsx cells as they show', () => {
  it('writes every kind of cell as its displayed text', async () => {
    const bytes = await workbook((ws) => {
      ws.addRow([
        { error: '#N/A' },
        { formula: '1/0', result: { error: '#DIV/0!' } },
        { formula: 'A1+1', result: { error: '#VALUE!' } },
        new Date(Date.UTC(2024, 0, 15)),
        { richText: [{ text: 'Bold ' }, { text: 'plain', font: { italic: true } }] },
        { formula: '6*7', result: 42 },
        { text: 'Our site', hyperlink: 'https://example.org' },
        true,
        false,
        { formula: 'TODAY()', result: new Date(Date.UTC(2024, 1, 2)) },
        { formula: 'UPPER("a")', result: 'A' },
        0.1 + 0.2,
      ]);
      ws.getCell('M1').value = 0.125;
      ws.getCell('M1').numFmt = '0.0%';
      ws.getCell('N1').value = new Date(Date.UTC(2024, 2, 3, 13, 45, 30));
      ws.getCell('N1').numFmt = 'yyyy-mm-dd hh:mm:ss';
    });
    const r = await extractText({ type: 'xlsx', bytes });
    expect(r.units[0]?.rows).toEqual([
      [
        '#N/A',
        '#DIV/0!',
        '#VALUE!',
        '2024-01-15',
        'Bold plain',
        '42',
        'Our site',
        'TRUE',
        'FALSE',
        '2024-02-02',
        'A',
        '0.3',
        '12.5%',
        '2024-03-03 13:45:30',
      ],
    ]);
    expect(r.text).not.toContain('[object Object]');
  });

  it('keeps cells in their columns across gaps and skips empty rows', async () => {
    const bytes = await workbook((ws) => {
      ws.getCell('A1').value = 'a';
      ws.getCell('C1').value = 'c';
      ws.getCell('B3').value = 'b';
    });
    const r = await extractText({ type: 'xlsx', bytes });
    expect(r.units[0]?.rows).toEqual([
      ['a', '', 'c'],
      ['', 'b'],
    ]);
  });

  it('reads parts written with a namespace prefix (<x:worksheet>)', async () => {
    const plain = await workbook((ws, wb) => {
      ws.addRow(['name', 'score']);
      ws.addRow(['Ada', 36]);
      wb.addWorksheet('Second').addRow([{ error: '#N/A' }]);
    });
    const bytes = await prefixed(plain);
    expect((await JSZip.loadAsync(bytes)).file('xl/worksheets/sheet1.xml')).not.toBeNull();
    expect(
      await (await JSZip.loadAsync(bytes)).file('xl/worksheets/sheet1.xml')!.async('string'),
    ).toContain('<x:worksheet');
    const r = await extractText({ type: 'xlsx', bytes });
    expect(r.units.map((u) => [u.label, u.rows])).toEqual([
      [
        'S',
        [
          ['name', 'score'],
          ['Ada', '36'],
        ],
      ],
      ['Second', [['#N/A']]],
    ]);
  });

  it('refuses a broken workbook with its own plain message, not the library’s', async () => {
    const zip = await JSZip.loadAsync(await workbook((ws) => ws.addRow(['x'])));
    zip.file('xl/worksheets/sheet1.xml', '<worksheet><sheetData><row><c>');
    const bytes = await zip.generateAsync({ type: 'nodebuffer' });
    const err = (await extractText({ type: 'xlsx', bytes }).catch((e: unknown) => e)) as {
      statusCode: number;
      message: string;
    };
    expect(err.statusCode).toBe(400);
    expect(err.message).toBe(
      'could not read this file: the file is damaged (a part of it is not valid XML)',
    );
    const notExcel = await makeNonWorkbook();
    await expect(extractText({ type: 'xlsx', bytes: notExcel })).rejects.toThrow(
      'could not read this file: it is not an Excel workbook',
    );
  });
});

async function makeNonWorkbook(): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('hello.txt', 'hi');
  return zip.generateAsync({ type: 'nodebuffer' });
}
