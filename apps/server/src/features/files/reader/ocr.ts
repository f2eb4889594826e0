import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import { traineddataFile } from '../../../lib/ocr-data';
import { encodeGrayPng, type GrayImage } from './gray-image';
import { DocumentReadError } from './types';

let engine: { languages: string; worker: Promise<Worker> } | undefined;

/**
 * Tesseract for these languages, started on first use and kept for the next page and document
 * (starting it loads its wasm engine and the traineddata). It runs in its own thread, started by
 * the extraction worker that calls this, and ends with it.
 */
function tesseract(languages: string[]): Promise<Worker> {
  const key = languages.join('+');
  if (engine?.languages === key) return engine.worker;
  const previous = engine?.worker;
  const worker = (async () => {
    await previous?.then((w) => w.terminate()).catch(() => {});
    const files = languages.map((code) => {
      const file = traineddataFile(code);
      if (!file) throw new DocumentReadError(`OCR language "${code}" is not installed`);
      return file;
    });
    // langPath is a folder on disk, so tesseract.js reads the traineddata from there and never
    // fetches it (its default is a CDN); cacheMethod 'none': no copy is written anywhere.
    return createWorker(languages, OEM.LSTM_ONLY, {
      langPath: tessdataDir(files),
      cacheMethod: 'none',
      gzip: true,
    });
  })();
  engine = { languages: key, worker };
  // A failed start is not kept: the next document tries again.
  worker.catch(() => {
    if (engine?.worker === worker) engine = undefined;
  });
  return worker;
}

/** Ends tesseract (a page given up at the time limit); the next page starts it again. */
export async function stopOcr(): Promise<void> {
  const worker = engine?.worker;
  engine = undefined;
  await worker?.then((w) => w.terminate()).catch(() => {});
}

/**
 * One folder holding every language's `<code>.traineddata.gz`, as tesseract.js wants: a language's
 * own package folder when there is one language, else a new private folder of links to them in the
 * temp directory (made once per worker thread; tesseract.js 7 cannot take the bytes themselves, its
 * initialize passes them as the language name).
 */
export function tessdataDir(files: string[]): string {
  const dirs = new Set(files.map((f) => path.dirname(f)));
  if (dirs.size === 1) return [...dirs][0]!;
  const dir = mkdtempSync(path.join(tmpdir(), 'inkwell-tessdata-'));
  for (const file of files) symlinkSync(file, path.join(dir, path.basename(file)));
  return dir;
}

/** The text tesseract reads in a grayscale image. */
export async function recognize(image: GrayImage, languages: string[]): Promise<string> {
  const worker = await tesseract(languages);
  // tesseract.js takes encoded images in Node; a fast PNG is the one format it always reads. (Its
  // types list browser images only; in Node a Buffer is what it reads.)
  const png = encodeGrayPng(image, 1);
  const { data } = await worker.recognize(png as unknown as string);
  return data.text.trim();
}

/**
 * The text tesseract reads in an encoded image (png, jpeg, bmp, tiff: an Office document's media).
 * It decodes the whole image into memory it keeps: callers check its size first (fitsOcr).
 */
export async function recognizeEncoded(bytes: Uint8Array, languages: string[]): Promise<string> {
  const worker = await tesseract(languages);
  const { data } = await worker.recognize(Buffer.from(bytes) as unknown as string);
  return data.text.trim();
}
