import type { Readable } from 'node:stream';
import type { FileExtension } from '@inkwell/contract';
import { HttpError } from '../../../lib/http-error';

export type UnitKind = 'page' | 'sheet' | 'slide' | 'paragraph' | 'row';

/** One piece of a document: a pdf page, a worksheet, a slide, a paragraph or a csv row. */
export interface TextUnit {
  kind: UnitKind;
  /** Human label such as "Page 3", "Sheet1", "Slide 2". */
  label: string;
  text: string;
  /** Cell values, for sheets (xlsx) and the csv table. */
  rows?: string[][];
  /** True when the text was read by OCR from the unit's images (a scanned pdf page). */
  ocr?: boolean;
}

export interface ExtractResult {
  text: string;
  units: TextUnit[];
  /** True when a page/row/character cap cut the document short. */
  truncated: boolean;
  /**
   * True when the time limit cut it short (OCR pages or pictures left unread): not final, so it
   * is never cached as the document's text (files.service.ts reads it again in the background).
   */
  timedOut?: boolean;
}

export type ExtractInput = (
  | { type: FileExtension; bytes: Uint8Array; stream?: never }
  | { type: FileExtension; stream: Readable; bytes?: never }
) & {
  /** Stops the read (its worker, poppler's process, OCR) and rejects with the signal's reason. */
  signal?: AbortSignal;
};

/**
 * The reader's output version, stored with cached text: raise it when the same document would
 * read differently (a fixed decoding, cells shown differently, scanned pages read by OCR), so
 * cached text is read again.
 */
export const READER_VERSION = 4;

/** Caps against hostile or huge documents (tests lower them), and which OCR to run. */
export interface ReaderLimits {
  /** Most bytes read from an input stream. */
  maxInputBytes: number;
  /** Most bytes a zip-based document (docx, xlsx, pptx) may inflate to. */
  maxDecompressedBytes: number;
  maxPages: number;
  maxRows: number;
  maxChars: number;
  timeLimitMs: number;
  /** Languages OCR reads scanned pages in (tesseract codes); empty: no OCR. */
  ocrLanguages: string[];
  /**
   * Poppler's pdftotext (a command on PATH, or a path) that reads a pdf's text layer natively;
   * empty: pdf.js reads every pdf (pdf-text.ts). Missing or failing, pdf.js reads it too.
   */
  pdftotext: string;
}

export const DEFAULT_LIMITS: ReaderLimits = {
  maxInputBytes: 20 * 1024 * 1024,
  maxDecompressedBytes: 150 * 1024 * 1024,
  maxPages: 500,
  maxRows: 20_000,
  maxChars: 2_000_000,
  timeLimitMs: 20_000,
  ocrLanguages: ['eng'],
  pdftotext: 'pdftotext',
};

/** A document we refuse to read; answers 400 with a message the user can act on. */
export class DocumentReadError extends HttpError {
  constructor(readonly reason: string) {
    super(400, `could not read this file: ${reason}`);
    this.name = 'DocumentReadError';
  }
}
