import type { FileExtension } from '@inkwell/contract';
import type { ExtractResult, ReaderLimits } from './types';

/**
 * The parser of each type, run in an extraction worker (see extraction-pool.ts). Each is loaded
 * on the worker's first document of its type: a worker that reads text files never loads pdf.js,
 * the Office parsers or tesseract, so it starts sooner and within a small heap.
 */
export async function parseByType(
  type: FileExtension,
  bytes: Uint8Array,
  l: ReaderLimits,
  pages?: number[],
): Promise<ExtractResult> {
  switch (type) {
    case 'pdf':
      return (await import('./pdf')).readPdf(bytes, l, pages);
    case 'docx':
      return (await import('./docx')).readDocx(bytes, l);
    case 'xlsx':
      return (await import('./xlsx')).readXlsx(bytes, l);
    case 'pptx':
      return (await import('./pptx')).readPptx(bytes, l);
    case 'csv':
      return (await import('./csv')).readCsv(bytes, l);
    case 'txt':
      return (await import('./txt')).readTxt(bytes, l);
  }
}
