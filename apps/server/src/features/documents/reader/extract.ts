import type { Readable } from 'node:stream';
import { readCsv } from './csv';
import { readDocx } from './docx';
import { readPdf } from './pdf';
import { readPptx } from './pptx';
import { readTxt } from './txt';
import { readXlsx } from './xlsx';
import {
  DEFAULT_LIMITS,
  DocumentReadError,
  type ExtractInput,
  type ExtractResult,
  type ReaderLimits,
} from './types';

/**
 * Reads the text of a document of any of the six types. Never throws anything but
 * DocumentReadError (400 'could not read this file: …') for a bad document, and gives up after
 * the time limit instead of hanging.
 */
export async function extractText(
  input: ExtractInput,
  limits: Partial<ReaderLimits> = {},
): Promise<ExtractResult> {
  const l: ReaderLimits = { ...DEFAULT_LIMITS, ...limits };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new DocumentReadError('it took too long to read')),
      l.timeLimitMs,
    );
  });
  try {
    return await Promise.race([run(input, l), timeout]);
  } catch (err) {
    if (err instanceof DocumentReadError) throw err;
    throw new DocumentReadError((err as Error)?.message ?? 'unknown error');
  } finally {
    clearTimeout(timer);
  }
}

async function run(input: ExtractInput, l: ReaderLimits): Promise<ExtractResult> {
  const bytes = input.bytes ?? (await readAll(input.stream, l.maxInputBytes));
  switch (input.type) {
    case 'pdf':
      return readPdf(bytes, l);
    case 'docx':
      return readDocx(bytes, l);
    case 'xlsx':
      return readXlsx(bytes, l);
    case 'pptx':
      return readPptx(bytes, l);
    case 'csv':
      return readCsv(bytes, l);
    case 'txt':
      return readTxt(bytes, l);
  }
}

async function readAll(stream: Readable, max: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > max) {
      stream.destroy();
      throw new DocumentReadError('it is larger than we can read');
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
