// Images too large for OCR (reader audit): a pdf or docx of a few hundred KB can declare an image
// of tens of millions of pixels, which decoded costs the reader about 4.5 bytes a pixel in pdf.js
// and 3 in tesseract, outside the worker's heap limit. An image over MAX_OCR_PIXELS is skipped
// before it is decoded. Each case runs in a process of its own (memory freed by one read stays
// with the process): its peak memory above its size before the read, tesseract already started
// by a small scan. The reader's worker threads run in that process.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { machineLine, mb, memoryOf, resetPeak, result } from './lib/machine';

interface Case {
  name: string;
  type: 'pdf' | 'docx';
  /** Sides of the images: one pdf page holding them all, or a docx's pictures. */
  images: [number, number][];
  /** MB; only for what is skipped (a read image costs what it costs). */
  max?: number;
}

const CASES: Case[] = [
  { name: 'a 600 dpi A4 scan (35M pixels, read)', type: 'pdf', images: [[4960, 7016]] },
  {
    name: 'two 5000×5000 images on a page (25M pixels each, read)',
    type: 'pdf',
    images: [
      [5000, 5000],
      [5000, 5001],
    ],
  },
  {
    name: 'an 8000×8000 image (64M pixels, skipped)',
    type: 'pdf',
    images: [[8000, 8000]],
    max: 50,
  },
  {
    name: 'a 10000×10000 picture (100M pixels, skipped)',
    type: 'docx',
    images: [[10000, 10000]],
    max: 50,
  },
];

async function makeFile(c: Case): Promise<Buffer> {
  const { encodeGrayPng } = await import('../apps/server/src/features/files/reader/gray-image');
  const pngs = c.images.map(([width, height]) =>
    encodeGrayPng({ width, height, pixels: new Uint8Array(width * height).fill(255) }, 1),
  );
  if (c.type === 'docx') {
    const { makeDocx } = await import('../apps/server/src/features/files/reader/test-fixtures');
    const { default: JSZip } = await import('jszip');
    const zip = await JSZip.loadAsync(await makeDocx([]));
    pngs.forEach((png, i) => zip.file(`word/media/image${i + 1}.png`, png));
    return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
  }
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: 'A4', margin: 0 });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  pngs.forEach((png, i) => doc.image(png, (i * 595) / pngs.length, 0, { width: 150 }));
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

async function measure(c: Case) {
  const { extractText } = await import('../apps/server/src/features/files/reader');
  const { makeScannedPdf } = await import('../apps/server/src/features/files/reader/scan-fixtures');
  await extractText({ type: 'pdf', bytes: await makeScannedPdf([['HELLO WORLD']]) });
  const bytes = await makeFile(c);
  global.gc?.();
  resetPeak();
  const before = memoryOf().rss;
  const t0 = performance.now();
  const out = await extractText({ type: c.type, bytes }, { timeLimitMs: 120_000 });
  const seconds = (performance.now() - t0) / 1000;
  const peak = mb(Math.max(0, memoryOf().peak - before));
  console.log(
    `${c.type}, ${c.name}: ${(bytes.length / 1024).toFixed(0)} KB, read in ${seconds.toFixed(2)} s ` +
      `(truncated=${out.truncated}), peak memory +${peak.toFixed(0)} MB`,
  );
  result({
    name: `OCR image peak memory, ${c.type} with ${c.name}`,
    value: peak,
    unit: 'MB',
    ...(c.max !== undefined && { target: `≤ ${c.max} MB`, met: peak <= c.max }),
  });
}

const only = process.argv[2];
if (only !== undefined) {
  await measure(CASES[Number(only)]!);
  process.exit(0); // the reader's worker threads would keep it running
} else {
  console.log(machineLine());
  for (let i = 0; i < CASES.length; i++) {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--expose-gc', fileURLToPath(import.meta.url), String(i)],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    );
    process.stdout.write(run.stdout ?? '');
    if (run.status !== 0) console.log(`${CASES[i]!.name}: failed, exit ${run.status}`);
  }
}
