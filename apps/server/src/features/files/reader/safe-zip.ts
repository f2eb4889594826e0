import { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import JSZip from 'jszip';
import { DocumentReadError, type ReaderLimits } from './types';

interface ZipEntryInternals {
  _data?: {
    uncompressedSize?: number;
    compressedContent?: Uint8Array;
    compression?: { magic?: string };
  };
}

const STORE = '\x00\x00';
const DEFLATE = '\x08\x00';
const STORED_SLICE = 256 * 1024;

export interface SafeZip {
  zip: JSZip;
  /** The inflated entries `keep` asked for. */
  kept: Map<string, Uint8Array>;
  /** Inflates one entry again, chunk by chunk, for parsers that stream (undefined if absent). */
  open(name: string): AsyncIterable<Uint8Array> | undefined;
}

/**
 * Opens a zip-based document and proves it inflates to at most `maxDecompressedBytes` before any
 * parser touches it: first by the sizes the headers declare, then by really inflating every entry
 * with a running count (headers can lie). Returns the zip plus the entries `keep` asked for.
 */
export async function openSafeZip(
  bytes: Uint8Array,
  limits: ReaderLimits,
  keep: (name: string) => boolean = () => false,
): Promise<SafeZip> {
  if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) {
    // Office wraps password-protected OOXML in an OLE container instead of a zip.
    throw new DocumentReadError('it is password-protected or in an old Office format');
  }
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes, { checkCRC32: false });
  } catch {
    throw new DocumentReadError('the file is damaged or is not an Office document');
  }
  const entries = Object.values(zip.files).filter((f) => !f.dir);
  let declared = 0;
  for (const e of entries)
    declared += (e as unknown as ZipEntryInternals)._data?.uncompressedSize ?? 0;
  if (declared > limits.maxDecompressedBytes) throw tooBig();

  const kept = new Map<string, Uint8Array>();
  let total = 0;
  for (const entry of entries) {
    const chunks: Uint8Array[] = [];
    const wanted = keep(entry.name);
    try {
      for await (const chunk of inflate(entry)) {
        total += chunk.length;
        if (total > limits.maxDecompressedBytes) throw tooBig();
        if (wanted) chunks.push(chunk);
      }
    } catch (err) {
      if (err instanceof DocumentReadError) throw err;
      throw new DocumentReadError('the file is damaged (a part of it does not unpack)');
    }
    if (wanted) kept.set(entry.name, Buffer.concat(chunks));
  }
  const open = (name: string) => {
    const entry = zip.file(name);
    return entry ? inflate(entry) : undefined;
  };
  return { zip, kept, open };
}

/** An entry's bytes, inflated chunk by chunk (a stored entry is its own bytes). */
export async function* inflate(entry: JSZip.JSZipObject): AsyncGenerator<Uint8Array> {
  const data = (entry as unknown as ZipEntryInternals)._data;
  const magic = data?.compression?.magic;
  const content = data?.compressedContent;
  if (!(content instanceof Uint8Array) || (magic !== STORE && magic !== DEFLATE)) {
    // JSZip itself refuses other methods at load; this guards against its internals changing.
    throw new DocumentReadError('the file is damaged (a part we cannot unpack)');
  }
  if (magic === STORE) {
    // Stored entries are not compressed (JSZip's nodeStream for them cannot be for-awaited);
    // handed on in slices so that streaming parsers never decode one huge chunk.
    for (let i = 0; i < content.length; i += STORED_SLICE)
      yield content.subarray(i, i + STORED_SLICE);
    return;
  }
  // Node's zlib inflates ~10× faster than JSZip's pure-JS inflate.
  // 256 KB output chunks: zlib's default 16 KB made iterating the chunks cost more than inflating.
  const stream = Readable.from([content]).pipe(createInflateRaw({ chunkSize: STORED_SLICE }));
  try {
    for await (const chunk of stream) yield chunk as Uint8Array;
  } finally {
    stream.destroy();
  }
}

const tooBig = () =>
  new DocumentReadError('it expands to more data than we accept (possible zip bomb)');
