import { jsdom } from '../../lib/lazy-jsdom';
import mammoth from 'mammoth';
import type { DocBlock } from '@inkwell/contract';

/** Above this the preview is the plain text only: mammoth holds the whole document in memory. */
export const DOCX_BLOCKS_MAX_BYTES = 5 * 1024 * 1024;
const MAX_BLOCKS = 5000;

const clean = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();

/**
 * A docx's headings, paragraphs, lists and tables, for the preview: mammoth maps Word's styles
 * to HTML (Heading 1 → h1, numbered paragraphs → ol, tables → table), and its HTML is walked
 * into plain blocks here, so the browser renders data, never the document's HTML.
 */
export async function docxBlocks(bytes: Buffer): Promise<DocBlock[]> {
  const { value: html } = await mammoth.convertToHtml({ buffer: bytes });
  const { JSDOM } = jsdom();
  const { document } = new JSDOM(`<body>${html}</body>`).window;
  const blocks: DocBlock[] = [];
  for (const el of Array.from(document.body.children)) {
    if (blocks.length >= MAX_BLOCKS) break;
    const tag = el.tagName.toLowerCase();
    const heading = /^h([1-6])$/.exec(tag);
    if (heading) {
      const text = clean(el.textContent);
      if (text) blocks.push({ type: 'heading', level: Number(heading[1]), text });
    } else if (tag === 'ul' || tag === 'ol') {
      blocks.push({ type: 'list', ordered: tag === 'ol', items: listItems(el, 0) });
    } else if (tag === 'table') {
      const rows = Array.from(el.querySelectorAll('tr')).map((tr) =>
        Array.from(tr.children).map((cell) => clean(cell.textContent)),
      );
      if (rows.length > 0) blocks.push({ type: 'table', rows });
    } else {
      const text = clean(el.textContent);
      if (text) blocks.push({ type: 'paragraph', text });
    }
  }
  return blocks;
}

function listItems(list: Element, depth: number): { text: string; depth: number }[] {
  const items: { text: string; depth: number }[] = [];
  for (const li of Array.from(list.children)) {
    if (li.tagName.toLowerCase() !== 'li') continue;
    // The item's own text, without its nested lists (they follow as deeper items).
    const own = Array.from(li.childNodes)
      .filter((n) => !['UL', 'OL'].includes((n as Element).tagName ?? ''))
      .map((n) => n.textContent)
      .join(' ');
    items.push({ text: clean(own), depth });
    for (const nested of Array.from(li.children)) {
      const t = nested.tagName.toLowerCase();
      if (t === 'ul' || t === 'ol') items.push(...listItems(nested, depth + 1));
    }
  }
  return items;
}
