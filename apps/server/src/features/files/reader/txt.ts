import { Collector } from './collector';
import { decodeText } from './text-encoding';
import type { ExtractResult, ReaderLimits } from './types';

export function readTxt(bytes: Uint8Array, limits: ReaderLimits): ExtractResult {
  const c = new Collector(limits);
  const text = decodeText(bytes).replace(/\r\n?/g, '\n');
  c.add({ kind: 'paragraph', label: 'Text', text });
  return c.result();
}
