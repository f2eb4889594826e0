import { Collector } from './collector';
import { readMediaByOcr } from './office-images';
import { mainPart } from './ooxml-rels';
import { openSafeZip } from './safe-zip';
import { DocumentReadError, type ExtractResult, type ReaderLimits } from './types';
import { parseXml, type Tag } from './xml-stream';

/** WordprocessingML, transitional and Strict: text elements of other vocabularies (m:t) are not. */
const isWord = (tag: Tag) =>
  tag.uri.endsWith('/wordprocessingml/2006/main') ||
  tag.uri === 'http://purl.oclc.org/ooxml/wordprocessingml/main';
const MARKUP_COMPATIBILITY = 'http://schemas.openxmlformats.org/markup-compatibility/2006';

/**
 * docx → one 'paragraph' unit per paragraph (a line break starts a new one), read as a stream
 * with a SAX parser as document.xml is inflated, so memory stays near the text itself.
 * Deleted text (w:delText) and field codes (w:instrText) are not text; of mc:AlternateContent
 * only the fallback is read, as Word's own readers do, so text boxes are not read twice.
 */
export async function readDocx(bytes: Uint8Array, limits: ReaderLimits): Promise<ExtractResult> {
  const zip = await openSafeZip(bytes, limits);
  const chunks = zip.open(await mainPart(zip, 'word/document.xml'));
  if (!chunks) throw new DocumentReadError('it is not a Word document');
  const c = new Collector(limits);
  let count = 0;
  let done = false;
  const add = (text: string) => {
    for (const line of text.split('\n')) {
      const t = line.trim();
      if (!t || done) continue;
      if (count >= limits.maxRows) {
        c.truncated = done = true;
        return;
      }
      if (count % 1000 === 999) c.check();
      count += 1;
      if (!c.add({ kind: 'paragraph', label: `Paragraph ${count}`, text: t })) done = true;
    }
  };
  // Paragraphs nest (a text box inside a run): each open paragraph keeps its own text.
  const open: string[][] = [];
  let inText = false;
  let runs = 0; // depth inside w:r: a w:tab elsewhere is a tab stop's definition, not a tab
  let skipped = 0; // depth inside mc:Choice
  let isDocument = false;
  await parseXml(
    chunks,
    {
      open(tag) {
        if (tag.uri === MARKUP_COMPATIBILITY && tag.local === 'Choice') skipped++;
        if (skipped > 0 || !isWord(tag)) return;
        const current = open[open.length - 1];
        switch (tag.local) {
          case 'document':
            isDocument = true;
            break;
          case 'p':
            open.push([]);
            break;
          case 'r':
            runs++;
            break;
          case 't':
            inText = true;
            break;
          case 'tab':
            if (runs > 0) current?.push('\t');
            break;
          case 'br':
          case 'cr':
            if (runs > 0) current?.push('\n');
            break;
          case 'noBreakHyphen':
            if (runs > 0) current?.push('-');
            break;
        }
      },
      text(t) {
        if (inText && skipped === 0) open[open.length - 1]?.push(t);
      },
      close(tag) {
        if (tag.uri === MARKUP_COMPATIBILITY && tag.local === 'Choice') skipped--;
        if (skipped > 0 || !isWord(tag)) return;
        if (tag.local === 't') inText = false;
        else if (tag.local === 'r') runs--;
        else if (tag.local === 'p') add((open.pop() ?? []).join(''));
      },
    },
    () => done,
  );
  if (!isDocument) throw new DocumentReadError('it is not a Word document');
  await readMediaByOcr(zip, 'word/media/', c, 'paragraph');
  return c.result();
}
