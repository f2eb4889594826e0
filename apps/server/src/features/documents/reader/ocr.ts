import { mkdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import { traineddataFile } from './ocr-data';
import { encodeGrayPng, type GrayImage } from './gray-image';
import { DocumentReadError } from './types';

let engine: { languages: string; worker: Promise<Worker> } | undefined;

/**
 * Tesseract for these languages, started on first use and kept for the next page and document
 * (starting it reads the traineddata, about half a second). It runs in its own thread, started by
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

/**
 * One folder holding every language's `<code>.traineddata.gz`, as tesseract.js wants: a language's
 * own package folder when there is one language, else a folder of links to them in the temp
 * directory (named after the languages, so every worker and restart shares it).
 */
function tessdataDir(files: string[]): string {
  const dirs = new Set(files.map((f) => path.dirname(f)));
  if (dirs.size === 1) return [...dirs][0]!;
  const names = files.map((f) => path.basename(f, '.traineddata.gz'));
  const dir = path.join(tmpdir(), 'inkwell-tessdata', names.join('+'));
  mkdirSync(dir, { recursive: true });
  for (const file of files) {
    try {
      symlinkSync(file, path.join(dir, path.basename(file)));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return dir;
}

/** The text tesseract reads in a grayscale image. */
export async function recognize(image: GrayImage, languages: string[]): Promise<string> {
  const worker = await tesseract(languages);
  // tesseract.js takes encoded images in Node; a fast PNG is the one format it always reads.
  const png = encodeGrayPng(image, 1);
  const { data } = await worker.recognize(png as unknown as string);
  return data.text.trim();
}
