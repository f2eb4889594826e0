// Document extraction and upload (issue "Personal files"): 10 MB pdf, docx and xlsx made here,
// extraction throughput and peak memory, pdf extraction beside poppler's pdftotext, and upload
// speed and server memory against the raw disk write speed of this machine, measured in this run.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Document, Packer, Paragraph, TextRun } from 'docx';
import ExcelJS from 'exceljs';
import PDFDocument from 'pdfkit';
import { extractText } from '../apps/server/src/features/documents/reader';
import { machineLine, mb, memoryOf, resetPeak, result } from './lib/machine';
import { startServerProcess } from './lib/product-server';

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

async function makeDocx(): Promise<Buffer> {
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
    const [pdf, docx, xlsx] = [await makePdf(), await makeDocx(), await makeXlsx()];
    console.log(
      `fixtures: pdf ${mb(pdf.length).toFixed(1)} MB, docx ${mb(docx.length).toFixed(1)} MB, xlsx ${mb(xlsx.length).toFixed(1)} MB`,
    );

    const pdfSeconds = await timeExtraction('pdf', pdf);
    await timeExtraction('docx', docx);
    await timeExtraction('xlsx', xlsx);

    const pdfFile = path.join(dir, 'bench.pdf');
    writeFileSync(pdfFile, pdf);
    try {
      const t0 = performance.now();
      execFileSync('pdftotext', [pdfFile, path.join(dir, 'bench.txt')]);
      const popplerSeconds = (performance.now() - t0) / 1000;
      console.log(
        `pdftotext on the same pdf: ${popplerSeconds.toFixed(2)} s (ours ${pdfSeconds.toFixed(2)} s, ${(pdfSeconds / popplerSeconds).toFixed(1)}× its time)`,
      );
      result({
        name: 'pdf extraction time vs pdftotext',
        value: pdfSeconds / popplerSeconds,
        unit: '× pdftotext',
      });
    } catch {
      console.log('pdftotext not installed (Debian poppler-utils): comparison skipped');
    }

    // Upload through the real server, next to the disk's own write speed in the same run.
    const server = await startServerProcess();
    try {
      const token = await server.register();
      const diskFile = path.join(server.dataDir, 'raw-write-test');
      const writeOnce = () => {
        const t = performance.now();
        writeFileSync(diskFile, pdf);
        const seconds = (performance.now() - t) / 1000;
        rmSync(diskFile);
        return seconds;
      };
      const diskMBs = mb(pdf.length) / [writeOnce(), writeOnce(), writeOnce()].sort()[1]!; // median of three

      const uploadOnce = async (name: string) => {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(pdf)]), name);
        const t = performance.now();
        const res = await fetch(`${server.url}/api/upload_file`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
          body: form,
        });
        if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
        return (performance.now() - t) / 1000;
      };
      await uploadOnce('warm-up.pdf'); // first use loads the multipart and storage code paths
      const times = [
        await uploadOnce('a.pdf'),
        await uploadOnce('b.pdf'),
        await uploadOnce('c.pdf'),
      ].sort();
      const uploadSeconds = times[1]!; // median of three
      // Memory over exactly one upload: the peak above the resident size just before it.
      await new Promise((r) => setTimeout(r, 500));
      const idle = memoryOf(server.pid);
      resetPeak(server.pid);
      await uploadOnce('d.pdf');
      const peakDelta = Math.max(0, memoryOf(server.pid).peak - idle.rss);
      const uploadMBs = mb(pdf.length) / uploadSeconds;
      console.log(
        `raw disk write ${diskMBs.toFixed(0)} MB/s; upload ${uploadMBs.toFixed(0)} MB/s (${((uploadMBs / diskMBs) * 100).toFixed(0)} %); server peak memory +${mb(peakDelta).toFixed(1)} MB for a ${mb(pdf.length).toFixed(1)} MB file`,
      );
      result({
        name: 'upload speed / raw disk write speed',
        value: (uploadMBs / diskMBs) * 100,
        unit: '%',
        target: '≥ 50 %',
        met: uploadMBs / diskMBs >= 0.5,
      });
      result({
        name: 'server peak memory during 10 MB upload',
        value: peakDelta / pdf.length,
        unit: '× file size',
        target: '< 2×',
        met: peakDelta < 2 * pdf.length,
      });
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
