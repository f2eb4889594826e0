import ExcelJS from 'exceljs';
import { Collector } from './collector';
import { openSafeZip } from './safe-zip';
import { DocumentReadError, type ExtractResult, type ReaderLimits } from './types';

const MAX_COLUMNS = 500;

/** xlsx → one 'sheet' unit per worksheet (workbook order) with its rows as strings. */
export async function readXlsx(bytes: Uint8Array, limits: ReaderLimits): Promise<ExtractResult> {
  const { zip } = await openSafeZip(bytes, limits);
  if (!zip.file('xl/workbook.xml')) throw new DocumentReadError('it is not an Excel workbook');
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(Buffer.from(bytes) as unknown as ArrayBuffer);
  } catch (err) {
    throw new DocumentReadError(`the file is damaged (${(err as Error).message})`);
  }
  const c = new Collector(limits);
  let rowBudget = limits.maxRows;
  for (const sheet of workbook.worksheets) {
    const rows: string[][] = [];
    const last = sheet.actualRowCount > 0 ? sheet.rowCount : 0;
    for (let r = 1; r <= last; r++) {
      if (rowBudget <= 0) {
        c.truncated = true;
        break;
      }
      if (r % 500 === 0) c.check();
      const row = sheet.getRow(r);
      const width = Math.min(row.cellCount, MAX_COLUMNS);
      const cells: string[] = [];
      for (let col = 1; col <= width; col++) cells.push(cellText(row.getCell(col)));
      if (cells.every((v) => v === '')) continue;
      rows.push(cells);
      rowBudget -= 1;
    }
    const text = rows.map((cells) => cells.join('\t')).join('\n');
    if (!c.add({ kind: 'sheet', label: sheet.name, text, rows })) break;
  }
  return c.result();
}

function cellText(cell: ExcelJS.Cell): string {
  try {
    return cell.text ?? '';
  } catch {
    return String(cell.value ?? '');
  }
}
