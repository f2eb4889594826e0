import { imageSize } from './image-header';
import { OcrBudget } from './ocr-budget';
import { fitsOcr } from './ocr-image-limit';
import { recognizeEncoded, stopOcr } from './ocr';
import type { SafeZip } from './safe-zip';
import type { Collector } from './collector';
import type { UnitKind } from './types';

/** Formats tesseract reads from their own bytes (media parts of Office documents). */
const READABLE_IMAGE = /\.(png|jpe?g|bmp|tiff?)$/i;
const MAX_IMAGES = 50;

const byNumber = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });

/**
 * A docx or pptx with no text at all is most often a scan pasted in: its images (the package's
 * media folder, in name order) are read by OCR, within what is left of the reader's time limit,
 * each as one unit marked `ocr`. A long series stops at the limit with the result `truncated`. A
 * picture larger than OCR reads (its header says) is left unread, and the result `truncated`.
 */
export async function readMediaByOcr(
  zip: SafeZip,
  mediaFolder: 'word/media/' | 'ppt/media/',
  c: Collector,
  kind: UnitKind,
): Promise<void> {
  const languages = c.limits.ocrLanguages;
  if (languages.length === 0 || c.units.length > 0) return;
  const names = Object.values(zip.zip.files)
    .filter((f) => !f.dir && f.name.startsWith(mediaFolder) && READABLE_IMAGE.test(f.name))
    .map((f) => f.name)
    .sort(byNumber)
    .slice(0, MAX_IMAGES);
  const budget = new OcrBudget(c.timeLeftMs());
  let n = 0;
  for (const name of names) {
    n += 1;
    // The entry's size was proven with the whole package when it was opened.
    const bytes = await zip.zip.file(name)!.async('uint8array');
    const size = imageSize(bytes);
    // Tesseract decodes a picture whole, in memory it keeps: only one whose header proves it
    // small enough goes to it (another format, or a damaged header, is passed over unread).
    if (!fitsOcr(size)) {
      if (size) c.truncated = true;
      continue;
    }
    if (!budget.allows()) {
      c.truncated = c.timedOut = true;
      return;
    }
    const text = await budget.run(() => recognizeEncoded(bytes, languages));
    if (text === undefined) {
      // Given up at the time limit: stop tesseract, which would go on using the CPU.
      await stopOcr();
      c.truncated = c.timedOut = true;
      return;
    }
    // Icons and rules read as nothing, and add nothing.
    if (text && !c.add({ kind, label: `Image ${n}`, text, ocr: true })) return;
  }
}
