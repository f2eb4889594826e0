// PDF text against poppler's pdftotext on the same files (issue 37): extraction alone, and upload
// to the first text preview through the real server, each as a fresh install runs it (default
// settings: pdftotext when the machine has it) and as before (PDF_READER=pdfjs, pdf.js alone).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import type { MyFilesResponse } from '@inkwell/contract';
import PDFDocument from 'pdfkit';
import { mb, memoryOf, resetPeak, result } from './machine';
import { makeProse } from './prose';
import { encodeForm, send } from './raw-http';
import { startServerProcess } from './product-server';
import { untilSearchable } from './until-searchable';

export interface PdfInput {
  name: string;
  /** On disk, for pdftotext. */
  file: string;
  bytes: Buffer;
}

/** A 400-page book of prose (pdfkit, compressed, one font), as a word processor writes one. */
export async function makeBook(pages = 400): Promise<Buffer> {
  const prose = makeProse(pages * 3200);
  const doc = new PDFDocument({ autoFirstPage: false, compress: true });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((r) => doc.on('end', () => r()));
  let p = 0;
  for (let page = 0; page < pages; page++) {
    doc.addPage({ size: 'A4', margin: 50 });
    for (let chars = 0; chars < 2800;) {
      const para = prose.paragraphs[p++ % prose.paragraphs.length]!;
      chars += para.length;
      doc.fontSize(10).text(para, { paragraphGap: 4 });
    }
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

/** The three large public test pdfs, from PDF_CORPUS (bench/fixtures/pdf-corpus.md). */
export function publicPdfs(): PdfInput[] {
  const dir = process.env.PDF_CORPUS;
  if (!dir || !existsSync(dir)) return [];
  const wanted = ['freeculture.pdf', 'GeoTopo-komprimiert.pdf', 'tracemonkey.pdf'];
  const all = readdirSync(dir, { recursive: true, encoding: 'utf8' });
  return wanted.flatMap((name) => {
    const rel = all.find((f) => path.basename(f) === name);
    if (!rel) return [];
    const file = path.join(dir, rel);
    return [{ name, file, bytes: readFileSync(file) }];
  });
}

export const hasPdftotext = () => spawnSync('pdftotext', ['-v'], { stdio: 'ignore' }).status === 0;

/** The settings a run measured, and how busy the machine was. */
export function settingsLine(): string {
  const version = spawnSync('pdftotext', ['-v'], { encoding: 'utf8' }).stderr?.split('\n')[0];
  return (
    `settings: product defaults (PDF_READER=auto: ${version || 'no pdftotext'}; 500 pages, ` +
    `2,000,000 characters, 20 s a document; OCR eng), 2 extraction workers; load average ` +
    `${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} at start`
  );
}

/** The same pages as the reader reads (its cap is 500), the text to a pipe as the reader gets it. */
const popplerArgs = (file: string) => ['-enc', 'UTF-8', '-l', '500', file, '-'];

function popplerSeconds(file: string): number {
  const t0 = performance.now();
  execFileSync('pdftotext', popplerArgs(file), {
    maxBuffer: 2 ** 30,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return (performance.now() - t0) / 1000;
}

/** pdftotext's peak resident memory (GNU time), in bytes; 0 where /usr/bin/time is missing. */
function popplerPeakBytes(file: string): number {
  const r = spawnSync('/usr/bin/time', ['-f', '%M', 'pdftotext', ...popplerArgs(file)], {
    encoding: 'utf8',
    maxBuffer: 2 ** 30,
  });
  return Number(r.stderr?.trim().split('\n').at(-1) ?? 0) * 1024 || 0;
}

/** The median of the rounds that gave a figure (NaN when none did). */
const median = (xs: number[]) => {
  const ok = xs.filter(Number.isFinite).sort((a, b) => a - b);
  return ok.length ? ok[Math.floor(ok.length / 2)]! : NaN;
};
const ROUNDS = 3;

/**
 * Extraction alone (extractText, in this process; its worker threads too), the product's default
 * and pdf.js alone, beside pdftotext, in turn for each round so all see the same load; medians.
 */
export async function measurePdfExtraction(inputs: PdfInput[]) {
  const { extractText } = await import('../../apps/server/src/features/files/reader');
  // pdf.js alone (before) gets more than the reader's 20 s: on a busy machine it passed them.
  const read = (bytes: Buffer, pdftotext?: string) =>
    extractText(
      { type: 'pdf', bytes: new Uint8Array(bytes) },
      pdftotext === undefined ? {} : { pdftotext, timeLimitMs: 300_000 },
    );
  // A worker with pdf.js loaded, as after a server's first pdf: its start is not the figure.
  await read(inputs[0]!.bytes, '');
  const totals = { now: 0, before: 0, poppler: 0 };
  // pdftotext's own size (its libraries, fonts configuration) on a one-page pdf: what any file costs.
  const onePage = `${inputs[0]!.file}.one-page.pdf`;
  writeFileSync(onePage, await makeBook(1));
  const baseline = popplerPeakBytes(onePage);
  for (const input of inputs) {
    const t = { now: [] as number[], before: [] as number[], poppler: [] as number[] };
    let units = 0;
    for (let round = 0; round < ROUNDS; round++) {
      let t0 = performance.now();
      units = (await read(input.bytes)).units.length;
      t.now.push((performance.now() - t0) / 1000);
      t0 = performance.now();
      await read(input.bytes, '');
      t.before.push((performance.now() - t0) / 1000);
      t.poppler.push(popplerSeconds(input.file));
    }
    const [now, before, poppler] = [median(t.now), median(t.before), median(t.poppler)];
    totals.now += now;
    totals.before += before;
    totals.poppler += poppler;
    // Memory over one read: this process's peak above its size before, and pdftotext's own.
    global.gc?.();
    resetPeak();
    const idle = memoryOf().rss;
    await read(input.bytes);
    const ours = Math.max(0, memoryOf().peak - idle);
    const child = popplerPeakBytes(input.file);
    const added = ours + Math.max(0, child - baseline);
    console.log(
      `${input.name} (${mb(input.bytes.length).toFixed(1)} MB, ${units} pages): now ${now.toFixed(2)} s ` +
        `(${(now / poppler).toFixed(2)}× pdftotext), before ${before.toFixed(2)} s (${(before / poppler).toFixed(2)}×), ` +
        `pdftotext ${poppler.toFixed(2)} s; peak memory: this process +${mb(ours).toFixed(1)} MB, ` +
        `pdftotext ${mb(child).toFixed(1)} MB, together ${((ours + child) / input.bytes.length).toFixed(2)}× the file; ` +
        `above pdftotext's ${mb(baseline).toFixed(1)} MB on a one-page pdf ${(added / input.bytes.length).toFixed(2)}×`,
    );
    result({
      name: `pdf text peak memory, ${input.name}`,
      value: (ours + child) / input.bytes.length,
      unit: '× the file',
    });
    result({
      name: `pdf text peak memory above pdftotext's own, ${input.name}`,
      value: added / input.bytes.length,
      unit: '× the file',
      target: '<= 3',
      met: added <= 3 * input.bytes.length,
    });
  }
  console.log(
    `extraction alone, all files: now ${totals.now.toFixed(2)} s, before ${totals.before.toFixed(2)} s, pdftotext ${totals.poppler.toFixed(2)} s`,
  );
  result({
    name: 'pdf extraction time vs pdftotext',
    value: totals.now / totals.poppler,
    unit: '× pdftotext',
    target: '<= 1.5',
    met: totals.now <= 1.5 * totals.poppler,
  });
  result({
    name: 'pdf extraction time vs pdftotext, pdf.js alone (before)',
    value: totals.before / totals.poppler,
    unit: '× pdftotext',
  });
}

/**
 * How the files follow each other: `settled`, each is timed on a server that has finished the
 * previous one's work (its search index, which the upload starts: the file list says when);
 * `beside pdftotext`, the same with pdftotext timed right after each, so both are timed alike;
 * `back to back`, the next is uploaded while the previous file's index is still being built.
 */
type Pacing = 'settled' | 'beside pdftotext' | 'back to back';

/** Upload, then the first GET /api/preview_file/{id}?format=text, as one user does; medians. */
async function previewSeconds(env: Record<string, string>, inputs: PdfInput[], pacing: Pacing) {
  const server = await startServerProcess(env);
  try {
    const auth = { authorization: `Bearer ${await server.register()}` };
    const myFiles = async () =>
      (await (
        await fetch(`${server.url}/api/my_files`, { headers: auth })
      ).json()) as MyFilesResponse;
    const once = async (input: PdfInput) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(input.bytes)]), input.name);
      const { body, contentType } = await encodeForm(form);
      global.gc?.();
      let answer = '';
      const t0 = performance.now();
      const status = await send(
        `${server.url}/api/upload_file`,
        { method: 'POST', headers: { ...auth, 'content-type': contentType }, body },
        (c) => (answer += c),
      );
      if (status !== 201) throw new Error(`upload: ${status} ${answer}`);
      const id = (JSON.parse(answer) as { file: { id: number } }).file.id;
      const shown = await send(`${server.url}/api/preview_file/${id}?format=text`, {
        method: 'GET',
        headers: auth,
      });
      const seconds = (performance.now() - t0) / 1000;
      // pdf.js alone past the reader's time limit (a busy machine): not a figure.
      if (shown !== 200) console.log(`preview of ${input.name}: ${shown}, not counted`);
      if (pacing !== 'back to back') await untilSearchable(myFiles, { ids: [id] });
      await fetch(`${server.url}/api/delete_file/${id}`, { method: 'DELETE', headers: auth });
      return {
        seconds: shown === 200 ? seconds : NaN,
        poppler: pacing === 'beside pdftotext' ? popplerSeconds(input.file) : NaN,
      };
    };
    await once(inputs[0]!); // the server's first pdf (its reader started), not the figure
    const out = inputs.map(() => ({ seconds: [] as number[], poppler: [] as number[] }));
    for (let round = 0; round < ROUNDS; round++)
      for (const [i, input] of inputs.entries()) {
        const t = await once(input);
        out[i]!.seconds.push(t.seconds);
        out[i]!.poppler.push(t.poppler);
      }
    return {
      seconds: out.map((o) => median(o.seconds)),
      poppler: out.map((o) => median(o.poppler)),
    };
  } finally {
    await server.stop();
  }
}

export async function measurePdfPreview(inputs: PdfInput[]) {
  const { seconds: now, poppler } = await previewSeconds({}, inputs, 'beside pdftotext');
  const before = (await previewSeconds({ PDF_READER: 'pdfjs' }, inputs, 'settled')).seconds;
  const backToBack = (await previewSeconds({}, inputs, 'back to back')).seconds;
  // pdftotext again once the servers have stopped, as this bench timed it before: a quieter
  // moment than the rounds above (on a busy virtual machine it ran up to a third faster).
  const alone = inputs.map((input) =>
    median(Array.from({ length: ROUNDS }, () => popplerSeconds(input.file))),
  );
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  for (const [i, input] of inputs.entries())
    console.log(
      `upload + first text preview, ${input.name}: now ${now[i]!.toFixed(2)} s (${(now[i]! / poppler[i]!).toFixed(2)}× pdftotext ${poppler[i]!.toFixed(2)} s), ` +
        `before ${before[i]!.toFixed(2)} s (${(before[i]! / poppler[i]!).toFixed(2)}×), back to back ${backToBack[i]!.toFixed(2)} s`,
    );
  console.log(
    `upload + first text preview, all files: now ${sum(now).toFixed(2)} s, before ${sum(before).toFixed(2)} s, pdftotext ${sum(poppler).toFixed(2)} s; ` +
      `back to back (each file uploaded as the one before is answered, its index still being built) ${sum(backToBack).toFixed(2)} s; ` +
      `pdftotext timed alone after the servers stopped ${sum(alone).toFixed(2)} s`,
  );
  result({
    name: 'pdf upload to first text preview vs pdftotext',
    value: sum(now) / sum(poppler),
    unit: '× pdftotext',
    target: '<= 1.5',
    met: sum(now) <= 1.5 * sum(poppler),
  });
  result({
    name: 'pdf upload to first text preview vs pdftotext, pdf.js alone (before)',
    value: sum(before) / sum(poppler),
    unit: '× pdftotext',
  });
  result({
    name: 'pdf upload to first text preview vs pdftotext timed alone after the servers stopped',
    value: sum(now) / sum(alone),
    unit: '× pdftotext',
  });
  result({
    name: 'pdf upload to first text preview vs pdftotext, files back to back',
    value: sum(backToBack) / sum(poppler),
    unit: '× pdftotext',
  });
}
