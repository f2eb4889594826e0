import { parse } from 'csv-parse';
import { Collector } from './collector';
import { TableRows } from './table-rows';
import { decodeText } from './text-encoding';
import { DocumentReadError, type ExtractResult, type ReaderLimits } from './types';

/** csv → one table unit (kind 'sheet') whose rows are the records; text is the rows tab-joined. */
export async function readCsv(bytes: Uint8Array, limits: ReaderLimits): Promise<ExtractResult> {
  const c = new Collector(limits);
  // The rows count against the character cap with the text.
  const table = new TableRows(c.room);
  const parser = parse(decodeText(bytes), {
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    bom: true,
  });
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (table.rows.length >= limits.maxRows || !table.add(record.map((v) => String(v)))) {
        c.truncated = true;
        break;
      }
      if (table.rows.length % 1000 === 0) c.check();
    }
  } catch (err) {
    if (err instanceof DocumentReadError) throw err;
    throw new DocumentReadError(`invalid CSV (${(err as Error).message})`);
  } finally {
    parser.destroy();
  }
  c.add({ kind: 'sheet', label: 'Sheet1', text: table.text(), rows: table.rows });
  return c.result();
}
