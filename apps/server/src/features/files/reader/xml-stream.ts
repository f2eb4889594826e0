import { SaxesParser, type SaxesTagNS } from 'saxes';
import { DocumentReadError } from './types';

export type Tag = SaxesTagNS;

export interface XmlHandlers {
  open?(tag: Tag): void;
  close?(tag: Tag): void;
  text?(text: string): void;
}

/**
 * Parses an XML part as it is inflated, without building a tree: memory stays at one chunk plus
 * what the handlers keep. Names are matched by local name, so `<x:row>` and `<row>` are alike.
 * `stop()` returning true ends the parse early (a row cap reached).
 */
export async function parseXml(
  chunks: AsyncIterable<Uint8Array>,
  handlers: XmlHandlers,
  stop: () => boolean = () => false,
): Promise<void> {
  const parser = new SaxesParser({ xmlns: true, position: false });
  if (handlers.open) parser.on('opentag', handlers.open);
  if (handlers.close) parser.on('closetag', handlers.close);
  if (handlers.text) {
    parser.on('text', handlers.text);
    parser.on('cdata', handlers.text);
  }
  const decoder = new TextDecoder();
  try {
    for await (const chunk of chunks) {
      parser.write(decoder.decode(chunk, { stream: true }));
      if (stop()) return;
    }
    parser.write(decoder.decode()).close();
  } catch (err) {
    if (err instanceof DocumentReadError) throw err;
    throw new DocumentReadError('the file is damaged (a part of it is not valid XML)');
  }
}

/** An attribute by local name, whatever its prefix (`r:id`, `id`). */
export function attr(tag: Tag, local: string): string | undefined {
  const attributes = tag.attributes;
  const direct = attributes[local];
  if (direct) return direct.value;
  // Called for every cell, often for an attribute that is absent: no array allocated per call.
  for (const name in attributes)
    if (attributes[name]!.local === local) return attributes[name]!.value;
  return undefined;
}
