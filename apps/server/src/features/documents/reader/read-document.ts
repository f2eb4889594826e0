import type { FileExtension } from '@inkwell/contract';
import { readCsv } from './csv';
import { readDocx } from './docx';
import { readPdf } from './pdf';
import { readPptx } from './pptx';
import { readTxt } from './txt';
import { readXlsx } from './xlsx';
import type { ExtractResult, ReaderLimits } from './types';

/** The parser of each type, run in an extraction worker (see extraction-pool.ts). */
export async function readDocument(
  type: FileExtension,
  bytes: Uint8Array,
  l: ReaderLimits,
): Promise<ExtractResult> {
  switch (type) {
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
