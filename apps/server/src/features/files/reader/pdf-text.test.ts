import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ExtractionPool } from './extraction-pool';
import { makeLargeInsidePdf, makeLockedPdf } from './hostile-pdf-fixtures';
import { readPdfText } from './pdf-text';
import { runPdftotext } from './pdftotext';
import { makeScannedPdf } from './scan-fixtures';
import { makePdf } from './test-fixtures';
import { DEFAULT_LIMITS, DocumentReadError, type ReaderLimits } from './types';

/** Debian's poppler-utils: the image installs it; a machine without it skips what needs it. */
const hasPoppler = spawnSync('pdftotext', ['-v'], { stdio: 'ignore' }).status === 0;
const withPoppler = it.skipIf(!hasPoppler);

describe('pdf text: poppler when the machine has it, pdf.js otherwise', () => {
  const pool = new ExtractionPool(1);
  afterAll(() => pool.close());

  /** The reader as extract.ts wires it, noting which pages pdf.js was asked for. */
  async function read(bytes: Uint8Array, limits: Partial<ReaderLimits> = {}) {
    const asked: (number[] | 'all')[] = [];
    const result = await readPdfText(bytes, { ...DEFAULT_LIMITS, ...limits }, (l, pages) => {
      asked.push(pages ?? 'all');
      return pool.read('pdf', bytes, l, pages);
    });
    return { result, asked };
  }
  // Pages of a sentence or more: a page of hardly any text is read by pdf.js too (see below).
  const pages = [
    'Hello first page, where the story begins on a quiet morning by the sea.',
    'Second page here, in which the harbour fills with boats and with voices.',
    'Third and last page: the boats leave again, and the evening is quiet.',
  ];

  withPoppler('reads a text pdf with pdftotext alone, the same pages as pdf.js', async () => {
    const bytes = await makePdf(pages);
    const native = await read(bytes);
    const pdfjs = await read(bytes, { pdftotext: '' });
    expect(native.asked).toEqual([]);
    expect(pdfjs.asked).toEqual(['all']);
    const shape = (r: typeof native.result) => r.units.map((u) => [u.kind, u.label, u.text]);
    expect(shape(native.result)).toEqual(pages.map((text, i) => ['page', `Page ${i + 1}`, text]));
    expect(shape(native.result)).toEqual(shape(pdfjs.result));
    expect(native.result.truncated).toBe(false);
  });

  it('falls back to pdf.js when pdftotext is missing, or fails', async () => {
    const bytes = await makePdf(pages);
    const expected = (await read(bytes, { pdftotext: '' })).result;
    for (const pdftotext of ['/nonexistent/pdftotext', '/bin/false']) {
      const { result, asked } = await read(bytes, { pdftotext });
      expect(asked, pdftotext).toEqual(['all']);
      expect(result).toEqual(expected);
    }
  });

  withPoppler('gives a locked or broken pdf the same clean error as pdf.js', async () => {
    const locked = await makeLockedPdf('a secret page');
    const broken = (await makePdf(pages)).subarray(0, 200);
    for (const bytes of [locked, broken, Buffer.from('%PDF-1.7\ngarbage')]) {
      const before = await read(bytes, { pdftotext: '' }).catch((e: Error) => e.message);
      const now = await read(bytes).catch((e: Error) => e.message);
      expect(before).toMatch(/^could not read this file: /);
      expect(now).toBe(before);
    }
    expect(await read(locked).catch((e: Error) => e.message)).toMatch(/password-protected/);
  });

  withPoppler('still reads a scanned page by OCR, and only that page with pdf.js', async () => {
    const bytes = await makeScannedPdf([pages[0]!, ['COLD STORAGE'], pages[2]!]);
    const { result, asked } = await read(bytes);
    expect(asked).toEqual([[2]]);
    expect(result.units.map((u) => [u.label, u.ocr ?? false])).toEqual([
      ['Page 1', false],
      ['Page 2', true],
      ['Page 3', false],
    ]);
    expect(result.units[1]!.text).toMatch(/COLD\s+STORAGE/);
    expect(result.units[2]!.text).toBe(pages[2]);
  });

  withPoppler('reads a page of hardly any text as pdf.js reads it', async () => {
    const bytes = await makePdf([pages[0]!, 'Fig. 2', pages[2]!]);
    const { result, asked } = await read(bytes);
    const pdfjs = await read(bytes, { pdftotext: '' });
    expect(asked).toEqual([[2]]);
    expect(result.units).toEqual(pdfjs.result.units);
  });

  withPoppler('reads no more than the page cap of a pdf with 5,000 pages', async () => {
    const bytes = makeLargeInsidePdf(5000, 1);
    const run = await runPdftotext(bytes, {
      command: 'pdftotext',
      lastPage: 51,
      timeoutMs: 20_000,
      maxOutputBytes: 2 ** 20,
    });
    expect(run.ok && run.pages.length).toBe(51);
    const { result, asked } = await read(bytes, { maxPages: 50 });
    expect(asked).toEqual([]);
    expect(result.units.map((u) => u.label).at(-1)).toBe('Page 50');
    expect(result.units).toHaveLength(50);
    expect(result.truncated).toBe(true);
  });

  withPoppler('stops pdftotext at the output cap, keeping what came', async () => {
    // Some 26 MB of text from a file of 116 KB.
    const bytes = makeLargeInsidePdf(500, 10_000);
    const run = await runPdftotext(bytes, {
      command: 'pdftotext',
      lastPage: 501,
      timeoutMs: 20_000,
      maxOutputBytes: 200_000,
    });
    if (!run.ok) throw new Error(run.detail);
    expect(run.cut).toBe(true);
    // Killed at the cap: at most one pipe chunk more came.
    expect(run.bytes).toBeLessThan(200_000 + 2 ** 17);
    expect(run.pages[0]).toMatch(/^line 0: endless words/);

    const { result } = await read(bytes, { maxChars: 10_000 });
    expect(result.text.length).toBeLessThanOrEqual(10_000);
    expect(result.truncated).toBe(true);
  });

  withPoppler('gives up at the time limit with the reader’s error', async () => {
    const bytes = makeLargeInsidePdf(500, 10_000);
    await expect(read(bytes, { timeLimitMs: 1 })).rejects.toThrow(/took too long/);
  });

  it('starts pdf.js on a doubtful page while pdftotext still reads the pages after it', async () => {
    // A stand-in pdftotext (same output: pages ended by form feeds) that prints an empty first
    // page, then holds the second until the file `go` exists, which the pdf.js read makes: the
    // second page says whether it was let go or gave up waiting.
    const dir = mkdtempSync(path.join(tmpdir(), 'inkwell-pdftotext-'));
    const go = path.join(dir, 'go');
    const command = path.join(dir, 'pdftotext');
    writeFileSync(
      command,
      `#!/bin/sh\ncat > /dev/null\nprintf '\\f'\ni=0\nwhile [ ! -f ${go} ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done\n` +
        `if [ -f ${go} ]; then w=released; else w=late; fi\n` +
        `printf 'The second page was %s while the first was read, as a long book would be.\\f' $w\n`,
    );
    chmodSync(command, 0o755);
    try {
      const asked: (number[] | 'all')[] = [];
      const result = await readPdfText(
        new Uint8Array([1]),
        { ...DEFAULT_LIMITS, pdftotext: command },
        async (_limits, only) => {
          asked.push(only ?? 'all');
          writeFileSync(go, '');
          const cover = 'The cover, read again.';
          return {
            text: cover,
            units: [{ kind: 'page', label: 'Page 1', text: cover }],
            truncated: false,
          };
        },
      );
      expect(asked).toEqual([[1]]);
      expect(existsSync(go)).toBe(true);
      expect(result.units.map((u) => u.text)).toEqual([
        'The cover, read again.',
        'The second page was released while the first was read, as a long book would be.',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  /**
   * A stand-in pdftotext printing two empty pages, then a page of text. Each empty page waits
   * until the pdf.js reads before it have made their files (`go1`, `go2`), up to `waits` checks
   * 50 ms apart, and the last page says whether the second pdf.js read was under way before
   * poppler had finished. Made in a folder of its own for `use`, removed after.
   */
  async function withStandIn(waits: number, use: (command: string, dir: string) => Promise<void>) {
    const dir = mkdtempSync(path.join(tmpdir(), 'inkwell-pdftotext-'));
    const command = path.join(dir, 'pdftotext');
    const waitFor = (file: string) =>
      `i=0\nwhile [ ! -f ${path.join(dir, file)} ] && [ $i -lt ${waits} ]; do sleep 0.05; i=$((i+1)); done\n`;
    writeFileSync(
      command,
      `#!/bin/sh\ncat > /dev/null\nprintf '\\f'\n${waitFor('go1')}printf '\\f'\n${waitFor('go2')}` +
        `if [ -f ${path.join(dir, 'go2')} ]; then w=released; else w=late; fi\n` +
        `printf 'The third page was %s while the second was read, as a long book would be.\\f' $w\n`,
    );
    chmodSync(command, 0o755);
    try {
      await use(command, dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('reads the next doubtful pages while pdftotext still reads on, not only after it', () =>
    withStandIn(200, async (command, dir) => {
      const asked: number[][] = [];
      const result = await readPdfText(
        new Uint8Array([1]),
        { ...DEFAULT_LIMITS, pdftotext: command },
        async (_limits, only) => {
          asked.push(only!);
          writeFileSync(path.join(dir, `go${asked.length}`), '');
          const units = only!.map((n) => ({
            kind: 'page' as const,
            label: `Page ${n}`,
            text: `pdf.js ${n}`,
          }));
          return { text: '', units, truncated: false };
        },
      );
      expect(asked).toEqual([[1], [2]]);
      expect(result.units.map((u) => u.text)).toEqual([
        'pdf.js 1',
        'pdf.js 2',
        'The third page was released while the second was read, as a long book would be.',
      ]);
    }));

  it('asks pdf.js for no more pages once a read of it failed, and keeps poppler’s text', () =>
    // No waiting: the pages come at once, whatever pdf.js does.
    withStandIn(0, async (command) => {
      let reads = 0;
      const result = await readPdfText(
        new Uint8Array([1]),
        { ...DEFAULT_LIMITS, pdftotext: command },
        async () => {
          reads++;
          throw new DocumentReadError('the PDF is damaged');
        },
      );
      expect(reads).toBe(1);
      expect(result.units.map((u) => u.text)).toEqual([
        '',
        '',
        'The third page was late while the second was read, as a long book would be.',
      ]);
    }));
});
