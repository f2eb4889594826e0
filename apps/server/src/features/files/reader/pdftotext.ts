import { spawn } from 'node:child_process';

/**
 * Poppler's `pdftotext` as a child process: native speed (several times pdf.js's on large files,
 * bench/REPORT.md), for the pdf's text layer only (scans and pages it finds empty are read by
 * pdf.js and OCR, pdf-text.ts). No shell: the file goes in on stdin, the text comes back on stdout,
 * one page after another, each ended by a form feed.
 */
export interface PdftotextOptions {
  /** The command (found on PATH) or its path. */
  command: string;
  /** Pages 1 to this one are read, no further. */
  lastPage: number;
  /** Past it, the process is killed. */
  timeoutMs: number;
  /** Past this much text, the process is killed and what came is kept (`cut`). */
  maxOutputBytes: number;
  /**
   * Each page's text as soon as its form feed arrives (index 0 first), while the next pages are
   * still being read: the caller can start on a page before pdftotext has finished.
   */
  onPage?: (index: number, text: string) => void;
  /** Kills the process: the outcome is then `stopped`. */
  signal?: AbortSignal;
}

export type PdftotextOutcome =
  | {
      ok: true;
      /** Each page's text, in order (what pdftotext ended with a form feed). */
      pages: string[];
      /** The output cap stopped it: the last page may be partial, the pages after it unread. */
      cut: boolean;
      /** Bytes of text received (at most the cap and one chunk). */
      bytes: number;
    }
  | {
      ok: false;
      /** `missing`: no such command; `failed`: it could not read the file (why, in detail). */
      reason: 'missing' | 'failed' | 'timed out' | 'stopped';
      detail: string;
    };

/**
 * Reading order, not `-layout`: on the real-world corpus the layout mode read no more words
 * (mean word recall 95.8 % against 95.9 %, bench/pdf-corpus.bench.ts), and it sets columns side
 * by side, line by line, where reading order gives one column after the other.
 */
const MODE_ARGS: string[] = [];

export function runPdftotext(bytes: Uint8Array, o: PdftotextOptions): Promise<PdftotextOutcome> {
  const args = [...MODE_ARGS, '-enc', 'UTF-8', '-eol', 'unix', '-f', '1', '-l', `${o.lastPage}`];
  return new Promise((resolve) => {
    if (o.signal?.aborted) return resolve({ ok: false, reason: 'stopped', detail: 'before start' });
    // Only PATH, to find the command: nothing of the server's environment reaches it.
    const child = spawn(o.command, [...args, '-', '-'], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    let bytesIn = 0;
    // Pages told so far, and the bytes of the page under way (a form feed, 0x0C, is never part
    // of a multi-byte UTF-8 character, so the bytes can be cut at it before decoding).
    let told = 0;
    let pageBytes: Buffer[] = [];
    const tellPages = (chunk: Buffer) => {
      let from = 0;
      for (let ff = chunk.indexOf(0x0c); ff >= 0; ff = chunk.indexOf(0x0c, from)) {
        pageBytes.push(chunk.subarray(from, ff));
        o.onPage!(told++, Buffer.concat(pageBytes).toString('utf8'));
        pageBytes = [];
        from = ff + 1;
      }
      if (from < chunk.length) pageBytes.push(chunk.subarray(from));
    };
    let cut = false;
    let timedOut = false;
    let stderr = '';
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, o.timeoutMs);
    let stopped = false;
    const stop = () => {
      stopped = true;
      child.kill('SIGKILL');
    };
    o.signal?.addEventListener('abort', stop, { once: true });

    child.stdout.on('data', (chunk: Buffer) => {
      if (cut) return;
      chunks.push(chunk);
      bytesIn += chunk.length;
      if (bytesIn > o.maxOutputBytes) {
        cut = true;
        child.kill('SIGKILL');
      } else if (o.onPage) tellPages(chunk);
    });
    child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-2000)));
    // It may stop reading early (a locked or broken file, or killed): the write then fails.
    child.stdin.on('error', () => {});
    child.stdin.end(bytes);

    child.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', stop);
      resolve({
        ok: false,
        reason: err.code === 'ENOENT' ? 'missing' : 'failed',
        detail: err.message,
      });
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', stop);
      if (stopped) return resolve({ ok: false, reason: 'stopped', detail: 'stopped' });
      if (timedOut) return resolve({ ok: false, reason: 'timed out', detail: `${o.timeoutMs} ms` });
      if (!cut && code !== 0) {
        const why = stderr.trim().split('\n').at(-1) ?? '';
        return resolve({ ok: false, reason: 'failed', detail: `${code ?? signal}: ${why}` });
      }
      const text = Buffer.concat(chunks).toString('utf8');
      const pages = text.split('\f');
      // Every page ends with a form feed: what follows the last one is empty, unless cut.
      if (!cut) pages.pop();
      resolve({ ok: true, pages, cut, bytes: bytesIn });
    });
  });
}
