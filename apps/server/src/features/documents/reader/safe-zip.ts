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

/**
 * Opens a zip-based document and proves it inflates to at most `maxDecompressedBytes` before any
 * parser touches it: first by the sizes the headers declare, then by really inflating every entry
 * with a running count (headers can lie). Returns the zip plus the entries `keep` asked for.
 */
export async function openSafeZip(
  bytes: Uint8Array,
  limits: ReaderLimits,
  keep: (name: string) => boolean = () => false,
): Promise<{ zip: JSZip; kept: Map<string, Uint8Array> }> {
  if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) {
    // Office wraps password-protected OOXML in an OLE container instead of a zip.
    throw new DocumentReadError('it is password-protected or in an old Office format');
  }
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes, { checkCRC32: false });
  } catch (err) {
    throw new DocumentReadError(`the file is damaged (${(err as Error).message})`);
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
    const onChunk = (chunk: Uint8Array) => {
      total += chunk.length;
      if (total > limits.maxDecompressedBytes) return false;
      if (wanted) chunks.push(chunk);
      return true;
    };
    const data = (entry as unknown as ZipEntryInternals)._data;
    const magic = data?.compression?.magic;
    const content = data?.compressedContent;
    if (!(content instanceof Uint8Array) || (magic !== STORE && magic !== DEFLATE)) {
      // JSZip itself refuses other methods at load; this guards against its internals changing.
      throw new DocumentReadError('the file is damaged (an entry we cannot unpack)');
    }
    if (magic === STORE) {
      // A stored entry is its own bytes: nothing to inflate, so it is counted as it is.
      if (!onChunk(content)) throw tooBig();
    } else {
      // Node's zlib inflates ~10× faster than JSZip's pure-JS inflate.
      await pump(Readable.from([content]).pipe(createInflateRaw()), onChunk);
    }
    if (wanted) kept.set(entry.name, Buffer.concat(chunks));
  }
  return { zip, kept };
}

const tooBig = () =>
  new DocumentReadError('it expands to more data than we accept (possible zip bomb)');

/** Reads a stream chunk by chunk; stops (and destroys it) as soon as `onChunk` says no. */
async function pump(stream: Readable, onChunk: (chunk: Uint8Array) => boolean): Promise<void> {
  try {
    for await (const chunk of stream) {
      if (!onChunk(chunk as Uint8Array)) {
        stream.destroy();
        throw tooBig();
      }
    }
  } catch (err) {
    if (err instanceof DocumentReadError) throw err;
    throw new DocumentReadError(`the file is damaged (${(err as Error).message})`);
  }
}
