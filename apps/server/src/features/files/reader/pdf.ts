import type { PDFPageProxy } from 'pdfjs-dist/types/src/display/api';
import { Collector } from './collector';
import { toGray, type GrayImage, type PdfImageData } from './gray-image';
import { OcrBudget } from './ocr-budget';
import { MAX_OCR_PIXELS } from './ocr-image-limit';
import { recognize, stopOcr } from './ocr';
import { DocumentReadError, type ExtractResult, type ReaderLimits } from './types';

interface TextItemLike {
  str?: string;
  hasEOL?: boolean;
}

/**
 * pdf → one 'page' unit per page (pdf.js legacy build, no fonts or eval needed for text). A page
 * without a text layer (a scan) is read by OCR from its images, when OCR is on: its unit is marked
 * `ocr: true`. With `only`, just those pages (1-based, ascending; pdf-text.ts asks for the pages
 * poppler found empty).
 */
export async function readPdf(
  bytes: Uint8Array,
  limits: ReaderLimits,
  only?: number[],
): Promise<ExtractResult> {
  // pdf.js takes a second to load: only when a pdf is first read.
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // pdf.js may detach the buffer it is given; hand it a copy so the caller's bytes stay usable.
  const task = getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    // Decoded images as plain pixels (not ImageBitmaps), for OCR.
    isOffscreenCanvasSupported: false,
    // An image of more pixels than this is dropped from the page's operators, never decoded: its
    // pixels would take memory outside the worker's heap limit (ocr-image-limit.ts).
    maxImageSize: MAX_OCR_PIXELS,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  const c = new Collector(limits);
  const budget = new OcrBudget(limits.timeLimitMs);
  try {
    const doc = await task.promise.catch((err: unknown) => {
      throw pdfError(err);
    });
    const pages = Math.min(doc.numPages, limits.maxPages);
    if (doc.numPages > limits.maxPages) c.truncated = true;
    const numbers =
      only?.filter((n) => n <= pages) ?? Array.from({ length: pages }, (_, i) => i + 1);
    for (const n of numbers) {
      c.check();
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      let text = (content.items as TextItemLike[])
        .map((item) => (item.str ?? '') + (item.hasEOL ? '\n' : ''))
        .join('')
        .trim();
      let ocr = false;
      if (text === '' && limits.ocrLanguages.length > 0) {
        if (budget.allows()) {
          const read = await budget.run(() => ocrPage(page, limits.ocrLanguages, budget));
          // Given up at the time limit: stop tesseract, which would go on using the CPU.
          if (read === undefined) await stopOcr();
          text = read ?? '';
          ocr = text !== '';
        }
        // A long scan: its first pages only, until a read with more time (not final).
        if (!ocr && budget.spent) c.truncated = c.timedOut = true;
      }
      page.cleanup();
      if (!c.add({ kind: 'page', label: `Page ${n}`, text, ...(ocr && { ocr }) })) break;
    }
  } catch (err) {
    throw err instanceof DocumentReadError ? err : pdfError(err);
  } finally {
    await task.destroy().catch(() => {});
  }
  return c.result();
}

/** The text of a page's images (a scanner's pdf holds one a page), in drawing order. */
async function ocrPage(page: PDFPageProxy, languages: string[], budget: OcrBudget) {
  const texts: string[] = [];
  for await (const image of pageImages(page, budget)) {
    if (budget.spent) break; // given up meanwhile
    const text = await recognize(image, languages);
    if (text) texts.push(text);
  }
  return texts.join('\n\n');
}

/** Images too small to hold a line of text (icons, rules, bullets) are skipped. */
const MIN_SIDE = 32;
const MAX_IMAGES_A_PAGE = 8;

/**
 * The page's images in grayscale, one at a time (only one is held beside pdf.js's pixels), until
 * the page is given up.
 */
async function* pageImages(page: PDFPageProxy, budget: OcrBudget): AsyncGenerator<GrayImage> {
  const { OPS } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const ops = await page.getOperatorList();
  let count = 0;
  for (let i = 0; i < ops.fnArray.length && count < MAX_IMAGES_A_PAGE && !budget.spent; i++) {
    const fn = ops.fnArray[i];
    const args = ops.argsArray[i] as unknown[];
    let data: PdfImageData | undefined;
    if (fn === OPS.paintImageXObject) data = await imageObject(page, args[0] as string);
    else if (fn === OPS.paintInlineImageXObject) data = args[0] as PdfImageData;
    if (!data?.data || data.width < MIN_SIDE || data.height < MIN_SIDE) continue;
    const gray = toGray(data);
    if (!gray) continue;
    count += 1;
    yield gray;
  }
}

/** A decoded image XObject: page-local, or shared by the document for ids starting with g_. */
function imageObject(page: PDFPageProxy, id: string): Promise<PdfImageData | undefined> {
  const objs = id.startsWith('g_') ? page.commonObjs : page.objs;
  return new Promise((resolve) => objs.get(id, (data: unknown) => resolve(data as PdfImageData)));
}

function pdfError(err: unknown): DocumentReadError {
  const name = (err as { name?: string })?.name;
  if (name === 'PasswordException') return new DocumentReadError('it is password-protected');
  if (name === 'InvalidPDFException') return new DocumentReadError('it is not a valid PDF');
  return new DocumentReadError('the PDF is damaged');
}
