// OCR of scanned pdf pages (issue 20): time per page of a dense scan-like page (40 lines of 60
// characters, glyphs about 10 pt at 300 dpi), with tesseract.js in the reader's worker thread.
import { loadavg } from 'node:os';
import { machineLine, result } from './lib/machine';

const WORDS = ['the', 'old', 'road', 'had', 'water', 'cold', 'postage', 'ledger', 'three', 'door'];

function page(seed: number): string[] {
  const lines: string[] = [];
  for (let l = 0; l < 40; l++) {
    let line = '';
    for (let w = seed + l * 7; line.length < 54; w += 3) line += `${WORDS[w % WORDS.length]} `;
    lines.push(line.trim());
  }
  return lines;
}

async function main() {
  console.log(`${machineLine()}; load average ${loadavg()[0]!.toFixed(1)} at the start`);
  const { extractText } = await import('../apps/server/src/features/files/reader');
  const { makeScannedPdf } = await import('../apps/server/src/features/files/reader/scan-fixtures');
  const limits = { timeLimitMs: 120_000 };
  await extractText({ type: 'txt', bytes: Buffer.from('warm-up') }); // the worker thread is up
  const one = await makeScannedPdf([page(0)]);
  let t0 = performance.now();
  await extractText({ type: 'pdf', bytes: one }, limits);
  const first = performance.now() - t0;
  const pages = 4;
  const many = await makeScannedPdf(Array.from({ length: pages }, (_, i) => page(i + 1)));
  t0 = performance.now();
  const out = await extractText({ type: 'pdf', bytes: many }, limits);
  const perPage = (performance.now() - t0) / pages;
  const words = out.text.split(/\s+/).filter((w) => WORDS.includes(w.toLowerCase())).length;
  const drawn = Array.from(
    { length: pages },
    (_, i) =>
      page(i + 1)
        .join(' ')
        .split(' ').length,
  );
  console.log(
    `first scanned page (starting tesseract, reading eng): ${(first / 1000).toFixed(2)} s; ` +
      `then ${(perPage / 1000).toFixed(2)} s a page over ${pages} pages ` +
      `(${out.units.filter((u) => u.ocr).length} read by OCR, ` +
      `${words} of ${drawn.reduce((a, b) => a + b, 0)} words read right)`,
  );
  result({ name: 'OCR time per scanned page', value: perPage, unit: 'ms' });
  result({ name: 'OCR first page, with tesseract start', value: first, unit: 'ms' });
}

await main();
