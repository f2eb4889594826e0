// PDF text quality on a real-world corpus (issue 37): word recall per file of the reader before
// poppler (pdf.js alone) and of the product's reader (poppler's pdftotext, pdf.js for the pages it
// finds empty), with pdftotext's -layout mode beside, so that the mode and the engine are chosen by
// measurement and no file is read worse than before. OCR is off on both sides: pages both find
// empty go to the same OCR code (pdf.ts).
//
// The corpus is not in the repository: PDF_CORPUS names a folder of pdfs (searched recursively);
// bench/fixtures/pdf-corpus.md says where the one measured in bench/REPORT.md comes from. A
// `<name>.truth.txt` beside a pdf is its ground truth (a text written by a person); for the others,
// the reference is what most of three independent engines read (pdf.js, poppler, PDFium compiled
// to WebAssembly): a word counts as often as the middle of the three counts it, so one engine's
// garbage or omission does not decide.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { PDFiumLibrary } from '@hyzyla/pdfium';
import { extractText } from '../apps/server/src/features/files/reader';
import { extractionPool } from '../apps/server/src/features/files/reader/extraction-pool';
import { machineLine, result } from './lib/machine';
import { settingsLine } from './lib/pdf-speed';

type Bag = Map<string, number>;

/**
 * A dotless i or j with an accent: a spacing one before it (after NFKC, a space and the mark), or
 * a combining one after.
 */
const DOTLESS_ACCENTED = /( [\u0300-\u0302\u0308])?([\u0131\u0237])([\u0300-\u0302\u0308])?/gu;

/**
 * Lower-case words of two letters or digits or more. A word hyphenated at a line's end is joined
 * first, in every reading alike: poppler joins them itself, pdf.js and PDFium do not. So is a word
 * broken at a soft hyphen (U+00AD; PDFium marks one U+FFFE), the hyphen a tagged pdf prints at a
 * line's end: "in\u00ad\ncluding" is one word ("including"). So is an i or j built of a dotless
 * one and an accent, which engines give in three ways: "naïve" is "naı̈ve" (a combining mark after),
 * "na¨ıve" (a spacing accent before, pdf.js and PDFium) or "naïve" (poppler's, as the product keeps
 * it).
 */
function words(text: string): Bag {
  const bag: Bag = new Map();
  const joined = text
    .normalize('NFKC')
    .replace(/[\u00ad\ufffe][ \t]*(?:\r?\n[ \t]*)?/gu, '')
    .replace(/(\p{Ll})-\n\s*(\p{Ll})/gu, '$1$2')
    .replace(DOTLESS_ACCENTED, (all: string, before?: string, base?: string, after?: string) =>
      before || after
        ? ((base === '\u0131' ? 'i' : 'j') + (before || after)!.trimStart()).normalize('NFC')
        : all,
    );
  for (const w of joined.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? [])
    bag.set(w, (bag.get(w) ?? 0) + 1);
  return bag;
}

/** Per word, the middle of the three counts. */
function majority(a: Bag, b: Bag, c: Bag): Bag {
  const out: Bag = new Map();
  for (const w of new Set([...a.keys(), ...b.keys(), ...c.keys()])) {
    const n = [a.get(w) ?? 0, b.get(w) ?? 0, c.get(w) ?? 0].sort((x, y) => x - y)[1]!;
    if (n > 0) out.set(w, n);
  }
  return out;
}

const size = (bag: Bag) => [...bag.values()].reduce((s, n) => s + n, 0);

/** The share of the reference's words (with their counts) that a reading has. */
function recall(read: Bag, reference: Bag): number {
  let hit = 0;
  for (const [w, n] of reference) hit += Math.min(n, read.get(w) ?? 0);
  return hit / size(reference);
}

/** The same for distinct words: text drawn twice over (fake bold) or once counts alike. */
function distinctRecall(read: Bag, reference: Bag): number {
  let hit = 0;
  for (const w of reference.keys()) if (read.has(w)) hit++;
  return hit / reference.size;
}

function pdfsIn(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.toLowerCase().endsWith('.pdf'))
    .map((f) => path.join(dir, f))
    .sort();
}

interface Reading {
  text: string;
  pages: string[];
  error?: string;
  ms: number;
}

async function product(bytes: Uint8Array, pdftotext: string): Promise<Reading> {
  const t0 = performance.now();
  try {
    const r = await extractText({ type: 'pdf', bytes }, { ocrLanguages: [], pdftotext });
    return { text: r.text, pages: r.units.map((u) => u.text), ms: performance.now() - t0 };
  } catch (err) {
    return { text: '', pages: [], error: (err as Error).message, ms: performance.now() - t0 };
  }
}

/** poppler alone, in its reading-order (default) or -layout mode. */
function poppler(file: string, layout: boolean): string {
  const mode = layout ? ['-layout'] : [];
  try {
    return execFileSync('pdftotext', [...mode, '-enc', 'UTF-8', '-l', '500', file, '-'], {
      maxBuffer: 256 * 2 ** 20,
      timeout: 20_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    }).toString();
  } catch {
    return '';
  }
}

async function main() {
  console.log(machineLine());
  const dir = process.env.PDF_CORPUS;
  if (!dir || !existsSync(dir)) {
    console.log(
      'PDF_CORPUS is not set to a folder of pdfs (bench/fixtures/pdf-corpus.md): skipped',
    );
    return;
  }
  console.log(`${settingsLine()}; OCR off here (both readers send the same pages to it)`);
  const files = pdfsIn(dir);
  const pdfium = await PDFiumLibrary.init();
  let [msBefore, msNow, msPoppler, msPdfium, truthFiles] = [0, 0, 0, 0, 0];
  const sums = { before: 0, now: 0, layout: 0, counted: 0 };
  const worse: string[] = [];
  let worseDistinct = 0;
  const errorsChanged: string[] = [];
  let nowReadsWhereBeforeEmpty = 0;
  for (const [i, file] of files.entries()) {
    const name = path.relative(dir, file);
    const bytes = new Uint8Array(readFileSync(file));
    const before = await product(bytes, '');
    const now = await product(bytes, 'pdftotext');
    msBefore += before.ms;
    msNow += now.ms;
    if ((before.error ?? '') !== (now.error ?? '')) {
      errorsChanged.push(`${name}: before ${before.error ?? 'read'}, now ${now.error ?? 'read'}`);
    }
    // Pages before found empty (OCR would have read them) that now have text, and the reverse.
    for (const [p, text] of before.pages.entries())
      if (text === '' && (now.pages[p] ?? '') !== '') nowReadsWhereBeforeEmpty++;

    const truthFile = file.replace(/\.pdf$/i, '.truth.txt');
    let reference: Bag;
    // The two other engines, timed on the same file: the measurement that chose poppler.
    let t0 = performance.now();
    const popplerText = poppler(file, false);
    msPoppler += performance.now() - t0;
    t0 = performance.now();
    let third = '';
    try {
      const doc = await pdfium.loadDocument(bytes);
      const pages = Math.min(doc.getPageCount(), 500);
      for (let p = 0; p < pages; p++) third += doc.getPage(p).getText() + '\n';
      doc.destroy();
    } catch {
      third = '';
    }
    msPdfium += performance.now() - t0;
    if (existsSync(truthFile)) {
      reference = words(readFileSync(truthFile, 'utf8'));
      truthFiles++;
    } else {
      reference = majority(words(before.text), words(popplerText), words(third));
    }
    if (size(reference) === 0) continue;
    const r = {
      before: recall(words(before.text), reference),
      now: recall(words(now.text), reference),
      layout: recall(words(now.error ? '' : poppler(file, true)), reference),
    };
    sums.before += r.before;
    sums.now += r.now;
    sums.layout += r.layout;
    sums.counted++;
    const distinct = {
      before: distinctRecall(words(before.text), reference),
      now: distinctRecall(words(now.text), reference),
    };
    if (distinct.now < distinct.before) worseDistinct++;
    if (r.now < r.before) {
      worse.push(
        `${name}: ${(100 * r.before).toFixed(1)} % → ${(100 * r.now).toFixed(1)} % ` +
          `(distinct words ${(100 * distinct.before).toFixed(1)} % → ${(100 * distinct.now).toFixed(1)} %; ` +
          `${size(reference)} reference words, ${statSync(file).size} bytes)`,
      );
    }
    if ((i + 1) % 100 === 0) console.log(`… ${i + 1} of ${files.length} files`);
  }
  pdfium.destroy();
  await extractionPool().close();

  const pct = (x: number) => `${((100 * x) / sums.counted).toFixed(2)} %`;
  console.log(
    `corpus: ${files.length} pdfs in ${dir}; ${sums.counted} with reference words ` +
      `(${truthFiles} against a ground truth, the others against the three engines' majority)`,
  );
  console.log(
    `mean word recall: before (pdf.js) ${pct(sums.before)}, now (pdftotext + pdf.js) ${pct(sums.now)}, ` +
      `pdftotext -layout ${pct(sums.layout)}`,
  );
  console.log(
    `time, all files: before (pdf.js) ${(msBefore / 1000).toFixed(1)} s, now ${(msNow / 1000).toFixed(1)} s; ` +
      `pdftotext alone ${(msPoppler / 1000).toFixed(1)} s, PDFium wasm ${(msPdfium / 1000).toFixed(1)} s`,
  );
  console.log(
    `files read with lower word recall than before: ${worse.length} ` +
      `(with lower recall of distinct words: ${worseDistinct})`,
  );
  for (const line of worse) console.log(`  ${line}`);
  console.log(`files whose error or success changed: ${errorsChanged.length}`);
  for (const line of errorsChanged) console.log(`  ${line}`);
  console.log(`pages pdf.js found empty (OCR's) that now have text: ${nowReadsWhereBeforeEmpty}`);
  result({
    name: 'pdf corpus files read worse than before',
    value: worse.length,
    unit: 'files',
    target: '0',
    met: worse.length === 0,
  });
  result({
    name: 'pdf corpus mean word recall, before',
    value: (100 * sums.before) / sums.counted,
    unit: '%',
  });
  result({
    name: 'pdf corpus mean word recall, now',
    value: (100 * sums.now) / sums.counted,
    unit: '%',
  });
  result({
    name: 'pdf corpus mean word recall, pdftotext -layout',
    value: (100 * sums.layout) / sums.counted,
    unit: '%',
  });
  result({ name: 'pdf corpus read time, now vs before', value: msNow / msBefore, unit: '×' });
  result({
    name: 'pdf corpus read time, PDFium wasm vs pdftotext',
    value: msPdfium / msPoppler,
    unit: '×',
  });
  result({
    name: 'pdf corpus read time, pdf.js vs pdftotext',
    value: msBefore / msPoppler,
    unit: '×',
  });
}

await main();
