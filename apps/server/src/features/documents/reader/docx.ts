import mammoth from 'mammoth';
import { Collector } from './collector';
import { openSafeZip } from './safe-zip';
import { DocumentReadError, type ExtractResult, type ReaderLimits } from './types';

/** docx → paragraphs of raw text (mammoth), after the zip-bomb check. */
export async function readDocx(bytes: Uint8Array, limits: ReaderLimits): Promise<ExtractResult> {
  const { zip } = await openSafeZip(bytes, limits);
  if (!zip.file('word/document.xml')) throw new DocumentReadError('it is not a Word document');
  let raw: string;
  try {
    raw = (await mammoth.extractRawText({ buffer: Buffer.from(bytes) })).value;
  } catch {
    throw new DocumentReadError('the file is damaged or is not a Word document');
  }
  const c = new Collector(limits);
  const paragraphs = raw
    .split(/\n+/)
    .map((p) => p.trim())
    .filter(Boolean);
  for (const [i, text] of paragraphs.entries()) {
    if (i >= limits.maxRows) {
      c.truncated = true;
      break;
    }
    if (!c.add({ kind: 'paragraph', label: `Paragraph ${i + 1}`, text })) break;
  }
  return c.result();
}
