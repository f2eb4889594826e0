/** An encoded image's size in pixels. */
export interface ImageSize {
  width: number;
  height: number;
}

/**
 * The size a PNG, JPEG, BMP or TIFF declares in its header (the formats an Office document's media
 * are read by OCR in), read without decoding a pixel. Known by the bytes, not the file's name, as
 * tesseract knows them; undefined for another format, or a header cut short or without a size.
 */
export function imageSize(bytes: Uint8Array): ImageSize | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    const size = pngSize(bytes, view) ?? jpegSize(bytes, view) ?? bmpSize(bytes, view);
    return positive(size ?? tiffSize(bytes, view));
  } catch (err) {
    // A header cut short: reading past the end of the bytes.
    if (err instanceof RangeError) return undefined;
    throw err;
  }
}

const positive = (s: ImageSize | undefined) => (s && s.width > 0 && s.height > 0 ? s : undefined);

const starts = (bytes: Uint8Array, magic: number[]) => magic.every((b, i) => bytes[i] === b);

/** IHDR, the first chunk after the signature: width and height, big-endian. */
function pngSize(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  if (!starts(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return undefined;
  if (view.getUint32(12) !== 0x49484452) return undefined; // 'IHDR'
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** The first start-of-frame segment (SOF0–SOF15, less DHT, JPG and DAC), found segment by segment. */
function jpegSize(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  if (!starts(bytes, [0xff, 0xd8])) return undefined;
  let i = 2;
  while (i + 1 < bytes.length) {
    const marker = view.getUint8(i + 1);
    // Stray bytes between segments and fill bytes, passed over as libjpeg does, and the markers
    // that stand alone (TEM, RSTn).
    if (bytes[i] !== 0xff || marker === 0xff || marker === 0x00) i += 1;
    else if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) i += 2;
    else if (marker === 0xd9 || marker === 0xda)
      return undefined; // image data before a frame
    else if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      return { width: view.getUint16(i + 7), height: view.getUint16(i + 5) };
    } else i += 2 + view.getUint16(i + 2);
  }
  return undefined;
}

/** BITMAPCOREHEADER (12 bytes: 16-bit sides) or a later info header (signed 32-bit sides). */
function bmpSize(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  if (!starts(bytes, [0x42, 0x4d])) return undefined;
  if (view.getUint32(14, true) === 12) {
    return { width: view.getUint16(18, true), height: view.getUint16(20, true) };
  }
  // A negative height is a top-down bitmap.
  return { width: view.getInt32(18, true), height: Math.abs(view.getInt32(22, true)) };
}

const IMAGE_WIDTH = 256;
const IMAGE_LENGTH = 257;
const SHORT = 3;
/** A multi-page TIFF's pages looked at; its largest counts. */
const MAX_TIFF_PAGES = 64;

/** ImageWidth and ImageLength of each page's directory (IFD); the largest page's. */
function tiffSize(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  const little = starts(bytes, [0x49, 0x49, 0x2a, 0x00]);
  if (!little && !starts(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return undefined;
  let largest: ImageSize | undefined;
  let ifd = view.getUint32(4, little);
  const seen = new Set<number>();
  while (ifd !== 0 && !seen.has(ifd) && seen.size < MAX_TIFF_PAGES) {
    seen.add(ifd);
    const entries = view.getUint16(ifd, little);
    let width = 0;
    let height = 0;
    for (let e = ifd + 2; e < ifd + 2 + entries * 12; e += 12) {
      const tag = view.getUint16(e, little);
      if (tag !== IMAGE_WIDTH && tag !== IMAGE_LENGTH) continue;
      const value =
        view.getUint16(e + 2, little) === SHORT
          ? view.getUint16(e + 8, little)
          : view.getUint32(e + 8, little);
      if (tag === IMAGE_WIDTH) width = value;
      else height = value;
    }
    // A page without its size is a header tesseract cannot read either.
    if (width === 0 || height === 0) return undefined;
    if (!largest || width * height > largest.width * largest.height) largest = { width, height };
    ifd = view.getUint32(ifd + 2 + entries * 12, little);
  }
  return largest;
}
