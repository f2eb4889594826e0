import { deflateRawSync } from 'node:zlib';
import { estimateTokens } from '../../../lib/token-estimate';
import { chunkDocument } from '../chunking';
import type { TextUnit } from '../../files';
import { detectLanguage } from '../retrieval/detect-language';
import { languageRules } from '../retrieval/languages';
import { PASSAGE_TOKENS } from '../retrieval/passage-index';
import { indexTermsJoined } from './terms';

/**
 * A file's passages for the search index, cut as the single-file ask cuts them (the same
 * chunking and passage size), each with its place in the file's extracted text and its terms.
 * Runs in the CPU pool (workers/cpu-tasks.ts): the word breaking and stemming of a 1 MB text
 * take a few hundred milliseconds.
 */
export interface IndexedPassage {
  ord: number;
  text: string;
  ref: string;
  start: number;
  end: number;
  /** Hashed terms in order, joined by spaces (terms.ts). */
  terms: string;
  /** Their number. */
  length: number;
  /** Where its text is stored: `size` UTF-8 bytes at `at` of block `block`. */
  block: number;
  at: number;
  size: number;
}

export interface IndexedFile {
  language: string;
  passages: IndexedPassage[];
  chars: number;
  /** The passages' texts in runs of about BLOCK_BYTES, each deflated (raw DEFLATE of UTF-8). */
  blocks: Uint8Array[];
}

/**
 * What the index stores of a file: its passages without their texts, which are in the blocks
 * (each passage's text would be sent back from the CPU pool for nothing, the file's text again).
 */
export type IndexRows = Omit<IndexedFile, 'passages'> & {
  passages: Omit<IndexedPassage, 'text'>[];
};

export function indexRows(f: IndexedFile): IndexRows {
  return { ...f, passages: f.passages.map(({ text: _, ...p }) => p) };
}

/** Most passages a file keeps: its rows are keyed file_id × 2^20 + ord. */
export const MAX_PASSAGES = 1 << 20;
/**
 * Text deflated together: deflating each passage alone cost ~30 µs a call (two fifths of the
 * indexing time), and a question inflates a few dozen blocks of this size in well under 1 ms.
 */
export const BLOCK_BYTES = 8192;
/**
 * zlib's level 4: on XQuAD's 12 languages in 8 KB blocks it deflated in two thirds of level 6's
 * (the default) time to 0.375 of the text instead of 0.369 (levels 1-3 were slower and larger).
 */
const DEFLATE_LEVEL = 4;

export function buildFilePassages(a: { units: TextUnit[]; text: string }): IndexedFile {
  const chunks = chunkDocument(a.units, PASSAGE_TOKENS, estimateTokens, { oneLabel: true });
  const language = languageRules(detectLanguage(a.text)).code;
  const locate = locator(a.text);
  const blocks: Uint8Array[] = [];
  let parts: Buffer[] = [];
  let bytes = 0;
  const flush = () => {
    if (parts.length)
      blocks.push(deflateRawSync(Buffer.concat(parts, bytes), { level: DEFLATE_LEVEL }));
    parts = [];
    bytes = 0;
  };
  const passages = chunks.slice(0, MAX_PASSAGES).map((c, ord) => {
    const { joined, count } = indexTermsJoined(c.text, language);
    const utf8 = Buffer.from(c.text);
    if (bytes > 0 && bytes + utf8.length > BLOCK_BYTES) flush();
    const place = { block: blocks.length, at: bytes, size: utf8.length };
    parts.push(utf8);
    bytes += utf8.length;
    return {
      ord,
      text: c.text,
      ref: c.ref,
      ...locate(c.text),
      terms: joined,
      length: count,
      ...place,
    };
  });
  flush();
  return { language, passages, chars: a.text.length, blocks };
}

/**
 * Where each passage is in the text, found in reading order: chunking trims and rejoins the
 * reader's units (and a sheet's cells), so a passage's start is where its first words are, and
 * its end after its last words; when they are not found as written, the place of the one before.
 */
function locator(text: string) {
  let cursor = 0;
  return (passage: string): { start: number; end: number } => {
    const head = probe(passage, 'head');
    const at = head ? text.indexOf(head, cursor) : -1;
    if (at < 0) return { start: cursor, end: cursor };
    const tail = probe(passage, 'tail');
    const tailAt = tail ? text.indexOf(tail, at) : -1;
    const end = tailAt >= 0 ? tailAt + tail.length : Math.min(text.length, at + passage.length);
    cursor = at;
    return { start: at, end };
  };
}

/** A short run of the passage's first (or last) words, without the separators chunking adds. */
function probe(passage: string, side: 'head' | 'tail'): string {
  const parts = passage.split(/\n\n| \| /);
  const part = (side === 'head' ? parts[0] : parts[parts.length - 1])!.trim();
  return side === 'head' ? part.slice(0, 40) : part.slice(-40);
}
