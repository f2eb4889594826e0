import JSZip from 'jszip';
import { inflate } from './reader/safe-zip';

/**
 * Above this much XML (inflated) a docx's preview is its text only: mammoth builds a tree of
 * the whole document, and 5 MB of empty paragraphs (a 15 KB file) took it 64 s and 1.1 GB.
 */
export const DOCX_LAYOUT_MAX_XML_BYTES = 2 * 1024 * 1024;

/** The parts mammoth reads: XML and relationships (pictures are not inflated). */
const isXml = (name: string) => /\.(xml|rels)$/i.test(name);

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;

/**
 * The inflated size of a zip's XML parts as its central directory declares it: read on the
 * event loop in microseconds, before a worker is asked for the layout. Undefined when the
 * directory cannot be read (not a zip, or zip64, which no small docx needs).
 */
export function declaredXmlBytes(bytes: Uint8Array): number | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end record is the last 22 bytes, followed by a comment of up to 65,535 bytes.
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 65_535); at--)
    if (view.getUint32(at, true) === END_OF_DIRECTORY) {
      end = at;
      break;
    }
  if (end < 0) return undefined;
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  if (count === 0xffff || at === 0xffffffff) return undefined;
  let total = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== DIRECTORY_ENTRY) return undefined;
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    if (size === 0xffffffff || at + 46 + nameLength > bytes.length) return undefined;
    const name = Buffer.from(bytes.buffer, bytes.byteOffset + at + 46, nameLength).toString();
    if (isXml(name)) total += size;
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return total;
}

/**
 * Whether a docx's XML parts really inflate to at most `limit` bytes (a directory can lie about
 * its sizes): counted as they inflate, stopped past the limit. In the worker, before mammoth.
 */
export async function xmlInflatesWithin(bytes: Uint8Array, limit: number): Promise<boolean> {
  const zip = await JSZip.loadAsync(bytes, { checkCRC32: false });
  let total = 0;
  for (const entry of Object.values(zip.files)) {
    if (entry.dir || !isXml(entry.name)) continue;
    for await (const chunk of inflate(entry)) {
      total += chunk.length;
      if (total > limit) return false;
    }
  }
  return true;
}
