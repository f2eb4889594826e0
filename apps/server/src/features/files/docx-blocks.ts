import type * as Mammoth from 'mammoth';
import { lazyRequire } from '../../lib/lazy-require';
import { parseFragment } from 'parse5';
import type { DefaultTreeAdapterMap } from 'parse5';
import type { DocBlock } from '@inkwell/contract';
import { DOCX_LAYOUT_MAX_XML_BYTES, xmlInflatesWithin } from './docx-xml-size';

/** mammoth (with its XML and zip readers), loaded by the first docx preview's worker only. */
const mammoth = lazyRequire<typeof Mammoth>('mammoth');

type Node = DefaultTreeAdapterMap['childNode'];
type Element = DefaultTreeAdapterMap['element'];

/** Above this the preview is the plain text only: mammoth holds the whole document in memory. */
export const DOCX_BLOCKS_MAX_BYTES = 5 * 1024 * 1024;
const MAX_BLOCKS = 5000;

const clean = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();

const isElement = (n: Node): n is Element => 'tagName' in n;
const elements = (n: { childNodes: Node[] }) => n.childNodes.filter(isElement);

/** The text under a node, as the DOM's textContent (comments left out). */
function textOf(n: Node): string {
  if (n.nodeName === '#text') return (n as DefaultTreeAdapterMap['textNode']).value;
  return isElement(n) ? n.childNodes.map(textOf).join('') : '';
}

/** Every element named `tag` under `n`, in document order. */
function descendants(n: Element, tag: string): Element[] {
  return elements(n).flatMap((el) => [
    ...(el.tagName === tag ? [el] : []),
    ...descendants(el, tag),
  ]);
}

/**
 * A docx's headings, paragraphs, lists and tables, for the preview: mammoth maps Word's styles
 * to HTML (Heading 1 → h1, numbered paragraphs → ol, tables → table), and its HTML is parsed
 * (parse5, what jsdom parses with, without jsdom's second of loading in a niced worker on a
 * person's first preview) and walked into plain blocks here, so the browser renders data, never
 * the document's HTML. Undefined (the preview is its text) when its XML inflates past
 * DOCX_LAYOUT_MAX_XML_BYTES.
 */
export async function docxBlocks(bytes: Buffer): Promise<DocBlock[] | undefined> {
  // The event loop checked the sizes the zip declares; these are the sizes it really inflates to.
  if (!(await xmlInflatesWithin(bytes, DOCX_LAYOUT_MAX_XML_BYTES))) return undefined;
  const { value: html } = await mammoth().convertToHtml({ buffer: bytes });
  const blocks: DocBlock[] = [];
  for (const el of elements(parseFragment(html))) {
    if (blocks.length >= MAX_BLOCKS) break;
    const tag = el.tagName;
    const heading = /^h([1-6])$/.exec(tag);
    if (heading) {
      const text = clean(textOf(el));
      if (text) blocks.push({ type: 'heading', level: Number(heading[1]), text });
    } else if (tag === 'ul' || tag === 'ol') {
      blocks.push({ type: 'list', ordered: tag === 'ol', items: listItems(el, 0) });
    } else if (tag === 'table') {
      const rows = descendants(el, 'tr').map((tr) =>
        elements(tr).map((cell) => clean(textOf(cell))),
      );
      if (rows.length > 0) blocks.push({ type: 'table', rows });
    } else {
      const text = clean(textOf(el));
      if (text) blocks.push({ type: 'paragraph', text });
    }
  }
  return blocks;
}

function listItems(list: Element, depth: number): { text: string; depth: number }[] {
  const items: { text: string; depth: number }[] = [];
  for (const li of elements(list)) {
    if (li.tagName !== 'li') continue;
    // The item's own text, without its nested lists (they follow as deeper items).
    const own = li.childNodes
      .filter((n) => !(isElement(n) && (n.tagName === 'ul' || n.tagName === 'ol')))
      .map(textOf)
      .join(' ');
    items.push({ text: clean(own), depth });
    for (const nested of elements(li)) {
      if (nested.tagName === 'ul' || nested.tagName === 'ol')
        items.push(...listItems(nested, depth + 1));
    }
  }
  return items;
}
