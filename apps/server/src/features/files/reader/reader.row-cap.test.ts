import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { extractText } from './index';
import type { ExtractResult } from './types';

/**
 * A table's rows count against the character cap with its text. Before, only the text was cut:
 * a 55 KB xlsx whose cells all name one shared string of 150 characters kept 150 M characters of
 * rows (the worker's message, the cached text in the database).
 */
const MAX_CHARS = 50_000;

/** A workbook of one sheet whose every cell shows the one shared string. */
async function repeatedString(rows: number, columns: number, chars: number): Promise<Buffer> {
  const ns = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const row = `<row>${'<c t="s"><v>0</v></c>'.repeat(columns)}</row>`;
  const zip = new JSZip();
  zip.file(
    '_rels/.rels',
    `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  );
  zip.file(
    'xl/workbook.xml',
    `<workbook xmlns="${ns}" xmlns:r="${rel}"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  );
  zip.file(
    'xl/_rels/workbook.xml.rels',
    `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
  );
  zip.file('xl/sharedStrings.xml', `<sst xmlns="${ns}"><si><t>${'x'.repeat(chars)}</t></si></sst>`);
  zip.file(
    'xl/worksheets/sheet1.xml',
    `<worksheet xmlns="${ns}"><sheetData>${row.repeat(rows)}</sheetData></worksheet>`,
  );
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** The characters of a table's rows, counted as its text: tabs between cells, newlines between rows. */
const rowChars = (r: ExtractResult) =>
  (r.units[0]?.rows ?? []).map((cells) => cells.join('\t')).join('\n').length;

describe('the character cap on rows', () => {
  it('holds for an xlsx repeating one shared string in 4,000 cells', async () => {
    // 600 K characters of cells (15,099 a row) from a few kilobytes of file.
    const r = await extractText(
      { type: 'xlsx', bytes: await repeatedString(40, 100, 150) },
      { maxChars: MAX_CHARS },
    );
    expect(rowChars(r)).toBe(MAX_CHARS);
    expect(r.units[0]!.rows).toHaveLength(4);
    expect(r.truncated).toBe(true);
    // The rows are what the text shows, the last one cut where the text is.
    expect(r.units[0]!.rows!.map((cells) => cells.join('\t')).join('\n')).toBe(r.text);
  });

  it('holds for a csv', async () => {
    const csv = Array.from({ length: 1000 }, (_, i) => `${i},${'y'.repeat(100)}`).join('\n');
    const r = await extractText({ type: 'csv', bytes: Buffer.from(csv) }, { maxChars: 5_000 });
    expect(rowChars(r)).toBe(5_000);
    expect(r.truncated).toBe(true);
    expect(r.units[0]!.rows!.map((cells) => cells.join('\t')).join('\n')).toBe(r.text);
  });

  it('leaves a table within the cap whole', async () => {
    const r = await extractText(
      { type: 'xlsx', bytes: await repeatedString(3, 10, 150) },
      { maxChars: MAX_CHARS },
    );
    expect(r.units[0]!.rows).toHaveLength(3);
    expect(r.units[0]!.rows![2]).toHaveLength(10);
    expect(r.truncated).toBe(false);
  });
});
