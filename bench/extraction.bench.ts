// Document extraction and upload (issue "Personal files"): 10 MB pdf, docx and xlsx made here,
// extraction throughput and peak memory, and upload speed and server memory against the raw
// (fsync'd) disk write speed of this machine, measured in this run. PDF text beside poppler's
// pdftotext on the same files (issue 37, lib/pdf-speed.ts): a 400-page book, the 10 MB pdf and
// three large public test pdfs (PDF_CORPUS, bench/fixtures/pdf-corpus.md), extraction alone and
// upload to the first text preview, at a fresh install's settings and with pdf.js alone (before).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { machineLine, mb, memoryOf, resetPeak, result } from './lib/machine';
import {
  hasPdftotext,
  makeBook,
  measurePdfExtraction,
  measurePdfPreview,
  publicPdfs,
  settingsLine,
  type PdfInput,
} from './lib/pdf-speed';
import { measureUpload } from './lib/upload-speed';

const TARGET = 9.5 * 2 ** 20; // just under the 10 MB upload limit
const word = () => randomBytes(4).toString('base64url').replace(/[-_]/g, 'e').toLowerCase();
const sentence = (n: number) => Array.from({ length: n }, word).join(' ');

async function makePdf(): Promise<Buffer> {
  const doc = new PDFDocument({ autoFirstPage: false, compress: false });
  const chunks: Buffer[] = [];
  let size = 0;
  doc.on('data', (c: Buffer) => {
    chunks.push(c);
    size += c.length;
  });
  const done = new Promise<void>((r) => doc.on('end', () => r()));
  while (size < TARGET) {
    doc.addPage();
    doc.fontSize(5).text(sentence(1500));
    // pdfkit emits its output asynchronously: let it flow before measuring the size again.
    await new Promise((r) => setImmediate(r));
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

// docx, exceljs and the reader are imported only once the upload is measured (see main).
async function makeDocx(): Promise<Buffer> {
  const { Document, Packer, Paragraph, TextRun } = await import('docx');
  let paragraphs = 20_000;
  for (;;) {
    const doc = new Document({
      sections: [
        {
          children: Array.from(
            { length: paragraphs },
            () => new Paragraph({ children: [new TextRun(sentence(20))] }),
          ),
        },
      ],
    });
    const buf = await Packer.toBuffer(doc);
    if (buf.length >= TARGET * 0.9 || paragraphs > 2_000_000) return buf;
    paragraphs = Math.ceil((paragraphs * TARGET) / buf.length);
  }
}

async function makeXlsx(): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs');
  let rows = 20_000;
  for (;;) {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Data');
    for (let i = 0; i < rows; i++) ws.addRow([i, sentence(4), sentence(3), Math.random() * 1000]);
    const buf = Buffer.from(await wb.xlsx.writeBuffer());
    if (buf.length >= TARGET * 0.9 || rows > 2_000_000) return buf;
    rows = Math.ceil((rows * TARGET) / buf.length);
  }
}

async function timeExtraction(type: 'pdf' | 'docx' | 'xlsx', bytes: Buffer) {
  const { extractText } = await import('../apps/server/src/features/files/reader');
  // Reading runs in a worker thread; starting one (loading the parsers) is kept out of the timing.
  await extractText({ type: 'txt', bytes: Buffer.from('warm-up') });
  global.gc?.();
  resetPeak();
  const before = memoryOf();
  const t0 = performance.now();
  const out = await extractText({ type, bytes: new Uint8Array(bytes) });
  const seconds = (performance.now() - t0) / 1000;
  const peak = Math.max(0, memoryOf().peak - before.rss);
  console.log(
    `${type}: ${mb(bytes.length).toFixed(1)} MB → ${out.text.length.toLocaleString()} chars in ${seconds.toFixed(2)} s ` +
      `(${(mb(bytes.length) / seconds).toFixed(1)} MB/s), ${out.units.length} units, truncated=${out.truncated}, ` +
      `peak memory +${mb(peak).toFixed(0)} MB`,
  );
  result({
    name: `${type} extraction throughput`,
    value: mb(bytes.length) / seconds,
    unit: 'MB/s',
  });
  result({ name: `${type} extraction peak memory`, value: mb(peak), unit: 'MB' });
  return seconds;
}

async function main() {
  console.log(machineLine());
  const dir = mkdtempSync(path.join(tmpdir(), 'inkwell-extract-bench-'));
  try {
    const pdf = await makePdf();
    // Upload first, while this process (the upload's client) is small: the libraries and the
    // extraction below grow its heap by hundreds of MB, and the client's garbage collector
    // working through that would take the CPU from the server and be timed as the server's.
    global.gc?.();
    await measureUpload(pdf);
    const [docx, xlsx] = [await makeDocx(), await makeXlsx()];
    console.log(
      `fixtures: pdf ${mb(pdf.length).toFixed(1)} MB, docx ${mb(docx.length).toFixed(1)} MB, xlsx ${mb(xlsx.length).toFixed(1)} MB`,
    );

    await timeExtraction('pdf', pdf);
    await timeExtraction('docx', docx);
    await timeExtraction('xlsx', xlsx);

    if (!hasPdftotext()) {
      console.log('pdftotext not installed (Debian poppler-utils): the pdf comparison is skipped');
      return;
    }
    console.log(settingsLine());
    const made = { 'book-400-pages.pdf': await makeBook(), 'generated-9.5MB.pdf': pdf };
    const inputs: PdfInput[] = Object.entries(made).map(([name, bytes]) => {
      const file = path.join(dir, name);
      writeFileSync(file, bytes);
      return { name, file, bytes };
    });
    inputs.push(...publicPdfs());
    if (inputs.length < 5) console.log('PDF_CORPUS not set: the public test pdfs are left out');
    await measurePdfExtraction(inputs);
    await measurePdfPreview(inputs);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
