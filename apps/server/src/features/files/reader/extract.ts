import { addAbortSignal, type Readable } from 'node:stream';
import { extractionPool } from './extraction-pool';
import { readPdfText } from './pdf-text';
import {
  DEFAULT_LIMITS,
  DocumentReadError,
  type ExtractInput,
  type ExtractResult,
  type ReaderLimits,
} from './types';

let configured: Partial<ReaderLimits> = {};

/** The server's settings for every read (OCR, OCR_LANGUAGES); set once at start-up. */
export function configureReader(settings: Partial<ReaderLimits>): void {
  configured = settings;
}

/** Starts a reader's worker ahead of the first document: its load is a second of CPU. */
export function warmReader(): void {
  extractionPool().warm();
}

/**
 * Reads the text of a document of any of the six types, in a worker thread (extraction-pool.ts).
 * Never throws anything but DocumentReadError (400 'could not read this file: …') for a bad
 * document, and stops the parse at the time limit instead of hanging.
 *
 * A failure to read the stored object itself (a disk or object-store error) is passed on as it
 * is: it is the server's fault, not the document's, so it answers 500 and is logged, rather than
 * telling the user that their file is damaged. So is a read that stalls (an object store that stops
 * sending): it is cut off at the same time limit as the parse, so the request never hangs.
 */
export async function extractText(
  input: ExtractInput,
  limits: Partial<ReaderLimits> = {},
): Promise<ExtractResult> {
  const l: ReaderLimits = { ...DEFAULT_LIMITS, ...configured, ...limits };
  const { signal } = input;
  signal?.throwIfAborted();
  const bytes =
    input.bytes ?? (await readAll(input.stream, l.maxInputBytes, l.timeLimitMs, signal));
  // The pool enforces the time limit and answers DocumentReadError for anything that goes wrong.
  const pool = extractionPool();
  const result =
    input.type === 'pdf'
      ? await readPdfText(
          bytes,
          l,
          (limits, pages) => pool.read('pdf', bytes, limits, pages, signal),
          signal,
        )
      : await pool.read(input.type, bytes, l, undefined, signal);
  // Stopped as the text arrived: it is not for anyone any more.
  signal?.throwIfAborted();
  return result;
}

async function readAll(
  stream: Readable,
  max: number,
  timeLimitMs: number,
  stop?: AbortSignal,
): Promise<Uint8Array> {
  const timeout = AbortSignal.timeout(timeLimitMs);
  addAbortSignal(stop ? AbortSignal.any([timeout, stop]) : timeout, stream);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      if (size > max) {
        stream.destroy();
        throw new DocumentReadError('it is larger than we can read');
      }
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    stop?.throwIfAborted(); // the stop's own reason, not the stream's AbortError
    throw err;
  }
  return Buffer.concat(chunks);
}
