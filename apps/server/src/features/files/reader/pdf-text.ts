import { Collector } from './collector';
import { runPdftotext } from './pdftotext';
import { cleanPopplerPage, looksDoubtful } from './text-quality';
import { DocumentReadError, type ExtractResult, type ReaderLimits, type TextUnit } from './types';

/** pdf.js in an extraction worker: the whole document, or only the given pages (1-based). */
export type PdfjsRead = (limits: ReaderLimits, pages?: number[]) => Promise<ExtractResult>;

/** Native reads at once (as many as the extraction pool's workers); more wait their turn. */
const NATIVE_AT_ONCE = 2;
let running = 0;
const waiting: (() => void)[] = [];

async function inNativeLane<T>(work: () => Promise<T>): Promise<T> {
  if (running >= NATIVE_AT_ONCE) await new Promise<void>((go) => waiting.push(go));
  else running++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/**
 * A pdf's text, one unit a page labelled "Page n". With poppler's `pdftotext` on the machine
 * (limits.pdftotext), its text layer is read natively; only the pages it finds empty are read by
 * pdf.js, and those pdf.js finds empty too (scans) by OCR, exactly as the pure-JS reader does. A
 * page whose poppler text looks doubtful (text-quality.ts: a broken font, fragments, hardly any
 * text) is read by pdf.js as before: poppler's reading is kept only where it looks clean. The
 * first such page is read as soon as poppler has passed it, while poppler reads on (a scanned
 * cover's OCR on one core, the book's text layer on the other).
 * Without pdftotext, or when it cannot read the file (a locked or broken pdf, a crash), pdf.js
 * reads the whole document, so such a file gets the same clean error as before.
 */
export async function readPdfText(
  bytes: Uint8Array,
  limits: ReaderLimits,
  pdfjs: PdfjsRead,
  signal?: AbortSignal,
): Promise<ExtractResult> {
  if (!limits.pdftotext) return pdfjs(limits);
  const started = Date.now();
  const left = () => Math.max(1, limits.timeLimitMs - (Date.now() - started));
  // pdf.js starts on a doubtful page as soon as poppler has passed it, on another core.
  const doubtful = new DoubtfulPages((pages) => pdfjs({ ...limits, timeLimitMs: left() }, pages));
  // pdf.js leaves soft hyphens out ("Mit­arbei­terinnen" is one word to search for) and sets
  // accents on i and j. Each page poppler tells of is cleaned and judged once, as it arrives.
  const told: string[] = [];
  const run = await inNativeLane(() =>
    runPdftotext(bytes, {
      command: limits.pdftotext!,
      // One page more than the cap tells whether the document goes on.
      lastPage: limits.maxPages + 1,
      timeoutMs: limits.timeLimitMs,
      // UTF-8 takes up to 4 bytes a character; the collector cuts at the character cap.
      maxOutputBytes: 4 * limits.maxChars + 4096,
      onPage: (i, text) => {
        if (i >= limits.maxPages) return;
        told[i] = cleanPopplerPage(text);
        if (looksDoubtful(told[i])) doubtful.add(i + 1);
      },
      ...(signal && { signal }),
    }),
  );
  if (signal?.aborted) {
    await doubtful.stop();
    signal.throwIfAborted();
  }
  if (!run.ok) {
    if (run.reason === 'timed out') throw new DocumentReadError('it took too long to read');
    await doubtful.stop(); // one pdf.js read of the file at a time
    return pdfjs({ ...limits, timeLimitMs: left() });
  }

  // The last page, when the output cap cut it, was never told: it is cleaned and judged here.
  const pages = run.pages.slice(0, limits.maxPages).map((text, i) => {
    if (told[i] !== undefined) return told[i];
    const clean = cleanPopplerPage(text);
    if (looksDoubtful(clean)) doubtful.add(i + 1);
    return clean;
  });
  await doubtful.done();
  let pdfjsTruncated = doubtful.truncated;
  let timedOut = doubtful.timedOut;
  for (const err of doubtful.errors) {
    if (!(err instanceof DocumentReadError)) throw err;
    // Nothing read at all (a locked pdf poppler opens but finds empty): pdf.js's clean error.
    if (!/too long/.test(err.reason) && pages.every((text) => text === '')) throw err;
    // poppler read the text layer: it stays, the pages it found empty stay empty, and a read
    // that ran out of time is not final (files.service.ts reads it again with more time).
    if (/too long/.test(err.reason)) pdfjsTruncated = timedOut = true;
  }
  const fromPdfjs = doubtful.units;

  const c = new Collector(limits);
  c.truncated = run.pages.length > limits.maxPages || run.cut || pdfjsTruncated;
  c.timedOut = timedOut;
  for (const [i, text] of pages.entries()) {
    const n = i + 1;
    const poppler: TextUnit = { kind: 'page', label: `Page ${n}`, text };
    const other = fromPdfjs.get(n);
    if (!c.add(other ?? poppler)) break;
  }
  return c.result();
}

/**
 * pdf.js on the pages poppler's text looks doubtful on, one read after another while poppler reads
 * on: the first as soon as one such page is found (a scanned cover is read while poppler reads the
 * rest of the book), each next one, as soon as the one before has ended, with all the pages found
 * meanwhile (each read opens the document again, so not one a page). Once poppler has finished,
 * only the pages found during the last read are left to wait for (on a book with a doubtful page
 * every ten, reading them all after poppler cost a third of its time). A read's failure is kept for
 * the caller to judge, and ends the reads: a pdf that pdf.js cannot open, or that ran out of time,
 * would fail each next one too.
 */
class DoubtfulPages {
  readonly units = new Map<number, TextUnit>();
  readonly errors: unknown[] = [];
  truncated = false;
  timedOut = false;
  private readonly asked = new Set<number>();
  private queued: number[] = [];
  /** The reads under way, until none is queued. */
  private reading: Promise<void> | undefined;

  constructor(private readonly read: (pages: number[]) => Promise<ExtractResult>) {}

  add(page: number): void {
    if (this.asked.has(page) || this.errors.length > 0) return;
    this.asked.add(page);
    this.queued.push(page);
    this.reading ??= this.readWhileQueued();
  }

  /** Reads no more: once the read under way, if any, has ended. */
  async stop(): Promise<void> {
    this.queued = [];
    await this.reading;
  }

  /** Once every page asked is read (or failed). */
  async done(): Promise<void> {
    await this.reading;
  }

  private async readWhileQueued(): Promise<void> {
    while (this.queued.length > 0) {
      const pages = this.queued.sort((a, b) => a - b);
      this.queued = [];
      try {
        const read = await this.read(pages);
        for (const unit of read.units)
          this.units.set(Number(unit.label.slice('Page '.length)), unit);
        this.truncated ||= read.truncated;
        this.timedOut ||= read.timedOut === true;
      } catch (err) {
        this.errors.push(err);
        this.queued = [];
      }
    }
    this.reading = undefined;
  }
}
