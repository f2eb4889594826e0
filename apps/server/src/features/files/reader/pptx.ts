import path from 'node:path/posix';
import { XMLParser } from 'fast-xml-parser';
import { Collector } from './collector';
import { readMediaByOcr } from './office-images';
import { openSafeZip } from './safe-zip';
import { DocumentReadError, type ExtractResult, type ReaderLimits } from './types';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
});

const isSlide = (name: string) => /^ppt\/slides\/slide\d+\.xml$/.test(name);
const wanted = (name: string) =>
  isSlide(name) || name === 'ppt/presentation.xml' || name === 'ppt/_rels/presentation.xml.rels';

/** pptx → one 'slide' unit per slide, in presentation order, with the text of its paragraphs. */
export async function readPptx(bytes: Uint8Array, limits: ReaderLimits): Promise<ExtractResult> {
  const zip = await openSafeZip(bytes, limits, wanted);
  const { kept } = zip;
  if (!kept.has('ppt/presentation.xml')) throw new DocumentReadError('it is not a PowerPoint file');
  const decoder = new TextDecoder();
  const xml = (name: string) => {
    const data = kept.get(name);
    return data ? (parser.parse(decoder.decode(data)) as unknown) : undefined;
  };
  const c = new Collector(limits);
  for (const [i, name] of slideOrder(xml, [...kept.keys()].filter(isSlide)).entries()) {
    if (i >= limits.maxPages) {
      c.truncated = true;
      break;
    }
    const lines: string[] = [];
    collectParagraphs(xml(name), lines);
    if (!c.add({ kind: 'slide', label: `Slide ${i + 1}`, text: lines.join('\n') })) break;
  }
  // Slides with no text at all: their pictures are read by OCR instead (a scanned deck).
  if (c.units.every((u) => u.text.trim() === '')) {
    const slides = c.units.splice(0);
    await readMediaByOcr(zip, 'ppt/media/', c, 'slide');
    if (c.units.length === 0) c.units.push(...slides);
  }
  return c.result();
}

/** Slide part names in the order of presentation.xml's sldIdLst; numeric order as a fallback. */
function slideOrder(xml: (name: string) => unknown, slides: string[]): string[] {
  const byNumber = [...slides].sort((a, b) => slideNumber(a) - slideNumber(b));
  try {
    const rels = new Map<string, string>();
    for (const rel of asArray(
      get(xml('ppt/_rels/presentation.xml.rels'), 'Relationships', 'Relationship'),
    )) {
      const r = rel as Record<string, string>;
      if (r['@_Id'] && r['@_Target'])
        rels.set(r['@_Id'], path.normalize(path.join('ppt', r['@_Target'])));
    }
    const ids = asArray(
      get(xml('ppt/presentation.xml'), 'p:presentation', 'p:sldIdLst', 'p:sldId'),
    );
    const ordered = ids
      .map((id) => rels.get((id as Record<string, string>)['@_r:id'] ?? ''))
      .filter((n): n is string => !!n && slides.includes(n));
    return ordered.length > 0 ? ordered : byNumber;
  } catch {
    return byNumber;
  }
}

const slideNumber = (name: string) => Number(/slide(\d+)\.xml$/.exec(name)?.[1] ?? 0);

function get(node: unknown, ...keys: string[]): unknown {
  let cur = node;
  for (const k of keys)
    cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[k] : undefined;
  return cur;
}

const asArray = (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** Walks the slide XML; each a:p becomes one line made of its a:t runs. */
function collectParagraphs(node: unknown, lines: string[]): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const n of node) collectParagraphs(n, lines);
    return;
  }
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (key === 'a:p') {
      for (const p of asArray(value)) {
        const runs: string[] = [];
        collectRuns(p, runs);
        const line = runs.join('').trim();
        if (line) lines.push(line);
      }
    } else if (!key.startsWith('@_')) {
      collectParagraphs(value, lines);
    }
  }
}

function collectRuns(node: unknown, out: string[]): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const n of node) collectRuns(n, out);
    return;
  }
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (key === 'a:t') {
      for (const t of asArray(value))
        out.push(typeof t === 'object' ? String(get(t, '#text') ?? '') : String(t));
    } else if (key === 'a:br') {
      out.push(' ');
    } else if (!key.startsWith('@_')) {
      collectRuns(value, out);
    }
  }
}
