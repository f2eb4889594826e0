import { describe, expect, it } from 'vitest';
import { encodeGrayPng } from './gray-image';
import { imageSize } from './image-header';

/** Bytes written field by field: [value, bytes, little-endian?] or raw byte lists. */
function bytesOf(...fields: (number[] | [number, 2 | 4, boolean])[]): Uint8Array {
  const out: number[] = [];
  for (const f of fields) {
    if (f.length !== 3 || typeof f[2] !== 'boolean') {
      out.push(...(f as number[]));
      continue;
    }
    const [value, size, little] = f;
    const b = Array.from({ length: size }, (_, i) => (value >>> (8 * i)) & 0xff);
    out.push(...(little ? b : b.reverse()));
  }
  return Uint8Array.from(out);
}

/** A JPEG's segments up to its frame header: JFIF, a Huffman table (not a frame), then the frame. */
const jpeg = (frame: number, width: number, height: number) =>
  bytesOf(
    [0xff, 0xd8],
    [0xff, 0xe0],
    [16, 2, false],
    [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0],
    [0xff, 0xc4, 0, 4, 0, 0],
    [0xff, frame],
    [17, 2, false],
    [8],
    [height, 2, false],
    [width, 2, false],
    [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1],
  );

/** A TIFF of pages [width, height], each side a SHORT or a LONG as its size needs. */
function tiff(little: boolean, pages: [number, number][]): Uint8Array {
  const parts: (number[] | [number, 2 | 4, boolean])[] = [
    little ? [0x49, 0x49, 0x2a, 0] : [0x4d, 0x4d, 0, 0x2a],
    [8, 4, little],
  ];
  pages.forEach(([width, height], p) => {
    parts.push([2, 2, little]);
    for (const [tag, value] of [
      [256, width],
      [257, height],
    ] as const) {
      const short = value < 65536;
      parts.push([tag, 2, little], [short ? 3 : 4, 2, little], [1, 4, little]);
      parts.push(short ? [value, 2, little] : [value, 4, little], ...(short ? [[0, 0]] : []));
    }
    const next = p + 1 < pages.length ? 8 + (p + 1) * 30 : 0;
    parts.push([next, 4, little]);
  });
  return bytesOf(...parts);
}

describe('imageSize: the size an image header declares, without decoding it', () => {
  it('reads a PNG', () => {
    const png = encodeGrayPng({ width: 3, height: 2, pixels: new Uint8Array(6) });
    expect(imageSize(png)).toEqual({ width: 3, height: 2 });
    expect(imageSize(png.subarray(0, 20))).toBeUndefined(); // cut short
  });

  it('reads a baseline or progressive JPEG, past the segments before its frame', () => {
    expect(imageSize(jpeg(0xc0, 10000, 7000))).toEqual({ width: 10000, height: 7000 });
    expect(imageSize(jpeg(0xc2, 640, 480))).toEqual({ width: 640, height: 480 });
    // Stray and fill bytes before a marker are passed over, as libjpeg does.
    const stray = bytesOf([0xff, 0xd8, 0x00, 0x12, 0xff, 0xff, 0xff, 0xc1], [11, 2, false]);
    expect(imageSize(bytesOf([...stray], [8, 0, 30, 0, 40, 1, 1, 0x11, 0]))).toEqual({
      width: 40,
      height: 30,
    });
    // Image data with no frame before it, and a frame whose height comes later (DNL).
    expect(imageSize(bytesOf([0xff, 0xd8, 0xff, 0xda, 0, 2]))).toBeUndefined();
    expect(imageSize(jpeg(0xc0, 640, 0))).toBeUndefined();
  });

  it('reads a BMP, top-down or bottom-up, and an OS/2 one', () => {
    const head = (size: number) => bytesOf([0x42, 0x4d], Array(12).fill(0), [size, 4, true]);
    const info = (w: number, h: number) =>
      bytesOf([...head(40)], [w, 4, true], [h >>> 0, 4, true], Array(28).fill(0));
    expect(imageSize(info(12000, -9000))).toEqual({ width: 12000, height: 9000 });
    expect(imageSize(info(800, 600))).toEqual({ width: 800, height: 600 });
    const core = bytesOf([...head(12)], [300, 2, true], [200, 2, true], [1, 0, 24, 0]);
    expect(imageSize(core)).toEqual({ width: 300, height: 200 });
  });

  it('reads a TIFF in either byte order, its largest page', () => {
    expect(imageSize(tiff(true, [[640, 480]]))).toEqual({ width: 640, height: 480 });
    const twoPages = tiff(false, [
      [640, 480],
      [100_000, 90_000],
    ]);
    expect(imageSize(twoPages)).toEqual({ width: 100_000, height: 90_000 });
  });

  it('knows no other format, whatever the name', () => {
    expect(imageSize(Buffer.from('GIF89a\x10\x00\x10\x00'))).toBeUndefined();
    expect(imageSize(Buffer.from('not an image'))).toBeUndefined();
    expect(imageSize(new Uint8Array(0))).toBeUndefined();
  });
});
