import type { FileExtension } from '@inkwell/contract';

/** How many leading bytes the sniffer needs before it can judge a file. */
export const HEAD_BYTES = 1024;
/** How much of the end of a zip we keep to read its central directory (names only). */
export const TAIL_BYTES = 1024 * 1024;

const ZIP_TYPES = new Set<FileExtension>(['docx', 'xlsx', 'pptx']);
/** The part every Office file of that type has; a zip without it is not that type. */
const ZIP_MAIN_PART: Partial<Record<FileExtension, string>> = {
  docx: 'word/document.xml',
  xlsx: 'xl/workbook.xml',
  pptx: 'ppt/presentation.xml',
};

export const isZipType = (type: FileExtension) => ZIP_TYPES.has(type);

const startsWith = (buf: Uint8Array, bytes: number[]) => bytes.every((b, i) => buf[i] === b);

/** Judges the first bytes: a pdf has %PDF-, Office files are zips, text has no NUL bytes. */
export function headMatches(type: FileExtension, head: Uint8Array): boolean {
  if (type === 'pdf') return Buffer.from(head).indexOf('%PDF-') !== -1;
  if (isZipType(type)) return startsWith(head, [0x50, 0x4b, 0x03, 0x04]);
  // txt / csv: UTF-16 text has NULs but starts with a BOM; otherwise a NUL means binary.
  if (startsWith(head, [0xff, 0xfe]) || startsWith(head, [0xfe, 0xff])) return true;
  return !head.includes(0);
}

/**
 * Entry names from a zip's central directory, read from the last bytes of the file, or null when
 * the end-of-central-directory record is missing or points outside what we kept (not a sane zip).
 */
export function zipEntryNames(tail: Buffer): string[] | null {
  const minEocd = 22;
  const stop = Math.max(0, tail.length - minEocd - 0xffff);
  let eocd = -1;
  for (let i = tail.length - minEocd; i >= stop; i--) {
    if (tail.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  const count = tail.readUInt16LE(eocd + 10);
  const cdSize = tail.readUInt32LE(eocd + 12);
  let pos = eocd - cdSize;
  if (pos < 0) return null;
  const names: string[] = [];
  for (let n = 0; n < count; n++) {
    if (pos + 46 > eocd || tail.readUInt32LE(pos) !== 0x02014b50) return null;
    const nameLen = tail.readUInt16LE(pos + 28);
    const extraLen = tail.readUInt16LE(pos + 30);
    const commentLen = tail.readUInt16LE(pos + 32);
    names.push(tail.toString('utf8', pos + 46, pos + 46 + nameLen));
    pos += 46 + nameLen + extraLen + commentLen;
  }
  return names;
}

/** True when the zip's entries are those of an Office file of `type`. */
export function zipMatches(type: FileExtension, names: string[] | null): boolean {
  const main = ZIP_MAIN_PART[type];
  return !!names && !!main && names.includes('[Content_Types].xml') && names.includes(main);
}
