import { crc32, deflateSync } from 'node:zlib';

/** An 8-bit grayscale image: one byte a pixel, 0 black to 255 white, row by row. */
export interface GrayImage {
  width: number;
  height: number;
  pixels: Uint8Array;
}

/** A decoded pdf.js image (page.objs): `kind` 1 is 1 bit a pixel (set = white), 2 RGB, 3 RGBA. */
export interface PdfImageData {
  width: number;
  height: number;
  kind: number;
  data: Uint8Array | Uint8ClampedArray;
}

/**
 * A pdf.js image as grayscale, shrunk by a whole factor so that its longer side is at most
 * `maxSide` (a 600 dpi scan holds four times the pixels tesseract needs, and costs four times the
 * time). Undefined for a kind it does not know.
 */
export function toGray(img: PdfImageData, maxSide = 3500): GrayImage | undefined {
  const { width, height, kind, data } = img;
  const gray = new Uint8Array(width * height);
  if (kind === 1) {
    const rowBytes = (width + 7) >> 3;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const bit = data[y * rowBytes + (x >> 3)]! & (128 >> (x & 7));
        gray[y * width + x] = bit ? 255 : 0;
      }
    }
  } else if (kind === 2 || kind === 3) {
    const step = kind === 2 ? 3 : 4;
    for (let i = 0, p = 0; i < gray.length; i++, p += step) {
      const luma = (data[p]! * 77 + data[p + 1]! * 150 + data[p + 2]! * 29) >> 8;
      // A transparent pixel shows the white page beneath it.
      const alpha = kind === 3 ? data[p + 3]! : 255;
      gray[i] = 255 - (((255 - luma) * alpha) >> 8);
    }
  } else {
    return undefined;
  }
  return shrink({ width, height, pixels: gray }, Math.ceil(Math.max(width, height) / maxSide));
}

/** Box-filter downscale by a whole factor. */
function shrink(img: GrayImage, factor: number): GrayImage {
  if (factor <= 1) return img;
  const width = Math.floor(img.width / factor);
  const height = Math.floor(img.height / factor);
  const pixels = new Uint8Array(width * height);
  const area = factor * factor;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let dy = 0; dy < factor; dy++) {
        const row = (y * factor + dy) * img.width + x * factor;
        for (let dx = 0; dx < factor; dx++) sum += img.pixels[row + dx]!;
      }
      pixels[y * width + x] = Math.round(sum / area);
    }
  }
  return { width, height, pixels };
}

/** An 8-bit grayscale PNG (no row filters); `level` is zlib's, 1 being fast. */
export function encodeGrayPng({ width, height, pixels }: GrayImage, level = 6): Buffer {
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    raw.set(pixels.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits a sample
  header[9] = 0; // grayscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw, { level })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc32(body));
  return Buffer.concat([head, body, tail]);
}
