import type { Readable } from 'node:stream';
import type { DocBlock } from '@inkwell/contract';
import { cpuPool } from '../../workers/cpu-pool';
import { DOCX_BLOCKS_MAX_BYTES } from './docx-blocks';
import { declaredXmlBytes, DOCX_LAYOUT_MAX_XML_BYTES } from './docx-xml-size';
import type { FilesCpuTasks } from './files.cpu';

export interface DocxLayoutInput {
  size: number;
  /** The reader cut the document's text short: too long to lay out as well. */
  truncated: boolean;
  open: () => Promise<Readable>;
  /** The client went away: the layout's worker stops. */
  signal?: AbortSignal;
}

/**
 * A docx's headings, lists and tables for its preview; undefined (the preview is its text) when
 * the file, its text or its XML is too large: mammoth's time and memory grow with the XML, not
 * with the file, which can compress it a thousandfold. Not cached: the largest layout let
 * through (2 MB of empty paragraphs) takes seconds, once per preview.
 */
export async function docxLayout(doc: DocxLayoutInput): Promise<DocBlock[] | undefined> {
  if (doc.truncated || doc.size > DOCX_BLOCKS_MAX_BYTES) return undefined;
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of await doc.open()) chunks.push(chunk as Buffer);
    // Its own buffer, moved to the worker (mammoth and parse5 would hold up the event loop).
    const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of chunks) {
      bytes.set(c, at);
      at += c.length;
    }
    const xml = declaredXmlBytes(bytes);
    if (xml === undefined || xml > DOCX_LAYOUT_MAX_XML_BYTES) return undefined;
    return await cpuPool<FilesCpuTasks>().run('docxBlocks', bytes, {
      transfer: [bytes.buffer],
      signal: doc.signal,
    });
  } catch {
    return undefined; // the reader already read its text; the layout is a nicety
  }
}
