import { Collector } from './collector';
import type { ExtractResult, ReaderLimits } from './types';

/** Decodes text: UTF-8 (BOM optional), UTF-16 LE/BE with BOM, else Latin-1 (windows-1252). */
export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  try {
    // ignoreBOM false (default) drops a UTF-8 BOM; fatal makes invalid UTF-8 fall through to Latin-1.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

export function readTxt(bytes: Uint8Array, limits: ReaderLimits): ExtractResult {
  const c = new Collector(limits);
  const text = decodeText(bytes).replace(/\r\n?/g, '\n');
  c.add({ kind: 'paragraph', label: 'Text', text });
  return c.result();
}
