/**
 * The most pixels an image may have to be read by OCR. Decoded, an image costs pdf.js about 4.5
 * bytes a pixel, in buffers outside the worker's heap limit, and an Office picture costs tesseract
 * about 3 bytes a pixel in its wasm memory, which it keeps for the worker's lifetime: a small file
 * can declare an image of billions of pixels. 45 million keeps a page scanned at 600 dpi (A4 35M,
 * US Letter 34M, US Legal 43M), already twice the resolution OCR reads at (gray-image.ts shrinks a
 * page to 3,500 pixels a side); a larger image is skipped before it is decoded.
 */
export const MAX_OCR_PIXELS = 45_000_000;

/** Whether an image of this size (undefined: not known) may be decoded for OCR. */
export function fitsOcr(size: { width: number; height: number } | undefined): boolean {
  return size !== undefined && size.width * size.height <= MAX_OCR_PIXELS;
}
