import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { Collector } from './collector';
import { DocumentReadError, type ExtractResult, type ReaderLimits } from './types';

interface TextItemLike {
  str?: string;
  hasEOL?: boolean;
}

/** pdf → one 'page' unit per page (pdf.js legacy build, no fonts or eval needed for text). */
export async function readPdf(bytes: Uint8Array, limits: ReaderLimits): Promise<ExtractResult> {
  // pdf.js may detach the buffer it is given; hand it a copy so the caller's bytes stay usable.
  const task = getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  const c = new Collector(limits);
  try {
    const doc = await task.promise.catch((err: unknown) => {
      throw pdfError(err);
    });
    const pages = Math.min(doc.numPages, limits.maxPages);
    if (doc.numPages > limits.maxPages) c.truncated = true;
    for (let n = 1; n <= pages; n++) {
      c.check();
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      const text = (content.items as TextItemLike[])
        .map((item) => (item.str ?? '') + (item.hasEOL ? '\n' : ''))
        .join('')
        .trim();
      page.cleanup();
      if (!c.add({ kind: 'page', label: `Page ${n}`, text })) break;
    }
  } catch (err) {
    throw err instanceof DocumentReadError ? err : pdfError(err);
  } finally {
    await task.destroy().catch(() => {});
  }
  return c.result();
}

function pdfError(err: unknown): DocumentReadError {
  const name = (err as { name?: string })?.name;
  if (name === 'PasswordException') return new DocumentReadError('it is password-protected');
  if (name === 'InvalidPDFException') return new DocumentReadError('it is not a valid PDF');
  return new DocumentReadError('the PDF is damaged');
}
