import { Collector } from './collector';
import { mainPart, relationshipsOf } from './ooxml-rels';
import { openSafeZip, type SafeZip } from './safe-zip';
import { TableRows } from './table-rows';
import { DocumentReadError, type ExtractResult, type ReaderLimits } from './types';
import { builtinFormat, formatIsoDate, formatNumber, unescapeOoxml } from './xlsx-format';
import { attr, parseXml } from './xml-stream';

const MAX_COLUMNS = 500;

interface Workbook {
  sheets: { name: string; part: string }[];
  date1904: boolean;
  strings: string[];
  /** The number format code of each cell style (cellXfs index). */
  formats: (string | undefined)[];
}

/**
 * xlsx → one 'sheet' unit per worksheet (workbook order) with its rows as the text each cell
 * shows. Every part is parsed as a stream (SAX) as it is inflated, matching elements by local
 * name, so prefixed parts (`<x:worksheet>`) and Strict OOXML read like any other.
 */
export async function readXlsx(bytes: Uint8Array, limits: ReaderLimits): Promise<ExtractResult> {
  const zip = await openSafeZip(bytes, limits);
  const book = await readWorkbook(zip);
  const c = new Collector(limits);
  let rowBudget = limits.maxRows;
  for (const sheet of book.sheets) {
    const chunks = zip.open(sheet.part);
    if (!chunks) continue; // a chartsheet or a dangling relationship: nothing to read
    // The rows count against the character cap with the text: shared strings let a small file
    // repeat one long string in every cell.
    const table = new TableRows(c.room);
    let stopped = false;
    await readSheet(
      chunks,
      book,
      (cells) => {
        if (rowBudget <= 0 || !table.add(cells)) {
          c.truncated = stopped = true;
          return;
        }
        if (table.rows.length % 500 === 499) c.check();
        rowBudget -= 1;
      },
      () => stopped,
    );
    const unit = {
      kind: 'sheet' as const,
      label: sheet.name,
      text: table.text(),
      rows: table.rows,
    };
    if (!c.add(unit) || table.full) break;
  }
  return c.result();
}

async function readWorkbook(zip: SafeZip): Promise<Workbook> {
  const part = await mainPart(zip, 'xl/workbook.xml');
  const chunks = zip.open(part);
  if (!chunks) throw new DocumentReadError('it is not an Excel workbook');
  const rels = await relationshipsOf(zip, part);
  const book: Workbook = { sheets: [], date1904: false, strings: [], formats: [] };
  let isWorkbook = false;
  await parseXml(chunks, {
    open(tag) {
      if (tag.local === 'workbook') isWorkbook = true;
      else if (tag.local === 'workbookPr')
        book.date1904 = ['1', 'true'].includes(attr(tag, 'date1904') ?? '');
      else if (tag.local === 'sheet') {
        const target = rels.get(attr(tag, 'id') ?? '')?.target;
        if (target) book.sheets.push({ name: attr(tag, 'name') ?? '', part: target });
      }
    },
  });
  if (!isWorkbook) throw new DocumentReadError('it is not an Excel workbook');
  const byKind = (kind: string) => [...rels.values()].find((r) => r.kind === kind)?.target;
  // Some writers leave these relationships out; the parts then sit at their usual names.
  book.strings = await readSharedStrings(
    zip.open(byKind('sharedStrings') ?? 'xl/sharedStrings.xml'),
  );
  book.formats = await readFormats(zip.open(byKind('styles') ?? 'xl/styles.xml'));
  return book;
}

/** Each shared string is the text of its runs; phonetic guides (rPh) are not part of it. */
async function readSharedStrings(chunks: AsyncIterable<Uint8Array> | undefined) {
  const strings: string[] = [];
  if (!chunks) return strings;
  let current: string[] | undefined;
  let inText = false;
  let phonetic = 0;
  await parseXml(chunks, {
    open(tag) {
      if (tag.local === 'si') current = [];
      else if (tag.local === 'rPh') phonetic++;
      else if (tag.local === 't') inText = phonetic === 0;
    },
    text(t) {
      if (inText && current) current.push(t);
    },
    close(tag) {
      if (tag.local === 't') inText = false;
      else if (tag.local === 'rPh') phonetic--;
      else if (tag.local === 'si' && current) {
        strings.push(unescapeOoxml(current.join('')));
        current = undefined;
      }
    },
  });
  return strings;
}

/** cellXfs index → number format code (built-in or the workbook's own numFmts). */
async function readFormats(chunks: AsyncIterable<Uint8Array> | undefined) {
  const formats: (string | undefined)[] = [];
  if (!chunks) return formats;
  const custom = new Map<number, string>();
  let inCellXfs = false;
  await parseXml(chunks, {
    open(tag) {
      if (tag.local === 'numFmt')
        custom.set(Number(attr(tag, 'numFmtId')), attr(tag, 'formatCode') ?? '');
      else if (tag.local === 'cellXfs') inCellXfs = true;
      else if (tag.local === 'xf' && inCellXfs) {
        const id = Number(attr(tag, 'numFmtId') ?? 0);
        formats.push(custom.get(id) ?? builtinFormat(id));
      }
    },
    close(tag) {
      if (tag.local === 'cellXfs') inCellXfs = false;
    },
  });
  return formats;
}

/** Column number of a cell reference such as "AB12" (1-based); undefined without one. */
function columnOf(ref: string | undefined): number | undefined {
  const letters = ref ? /^[A-Z]+/i.exec(ref)?.[0] : undefined;
  if (!letters) return undefined;
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + ch.charCodeAt(0) - 64;
  return n;
}

/** Streams a worksheet; calls `onRow` with each non-empty row's cell texts. */
async function readSheet(
  chunks: AsyncIterable<Uint8Array>,
  book: Workbook,
  onRow: (cells: string[]) => void,
  stop: () => boolean,
): Promise<void> {
  let cells: string[] = [];
  let col = 0;
  let type = 'n';
  let style = 0;
  let value: string[] = [];
  let capture = false;
  let inInline = false;
  let phonetic = 0;
  await parseXml(
    chunks,
    {
      open(tag) {
        switch (tag.local) {
          case 'row':
            cells = [];
            col = 0;
            break;
          case 'c':
            col = columnOf(attr(tag, 'r')) ?? col + 1;
            type = attr(tag, 't') ?? 'n';
            style = Number(attr(tag, 's') ?? 0);
            value = [];
            break;
          case 'v':
            capture = !inInline;
            break;
          case 'is':
            inInline = true;
            break;
          case 'rPh':
            phonetic++;
            break;
          case 't':
            capture = inInline && phonetic === 0;
            break;
        }
      },
      text(t) {
        if (capture) value.push(t);
      },
      close(tag) {
        switch (tag.local) {
          case 'v':
          case 't':
            capture = false;
            break;
          case 'is':
            inInline = false;
            break;
          case 'rPh':
            phonetic--;
            break;
          case 'c':
            if (col >= 1 && col <= MAX_COLUMNS)
              cells[col - 1] = cellText(type, value.join(''), style, book);
            break;
          case 'row': {
            const row = Array.from(cells, (v) => v ?? '');
            while (row.length > 0 && row[row.length - 1] === '') row.pop();
            if (row.length > 0) onRow(row);
            break;
          }
        }
      },
    },
    stop,
  );
}

/** The text a cell shows: its cached value for formulas, errors as Excel writes them (#N/A). */
function cellText(type: string, raw: string, style: number, book: Workbook): string {
  switch (type) {
    case 's':
      return book.strings[Number(raw)] ?? '';
    case 'inlineStr':
    case 'str':
      return unescapeOoxml(raw);
    case 'b':
      return raw === '' ? '' : raw === '1' || raw === 'true' ? 'TRUE' : 'FALSE';
    case 'e':
      return raw;
    case 'd':
      return formatIsoDate(raw);
    default: {
      if (raw.trim() === '') return '';
      const n = Number(raw);
      return Number.isFinite(n) ? formatNumber(n, book.formats[style], book.date1904) : raw;
    }
  }
}
