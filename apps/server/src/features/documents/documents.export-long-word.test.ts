import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-app';
import { cpuPool } from '../../workers/cpu-pool';

/** The most an answer to download may hold (the contract's limit), as one word. */
const LETTERS = 500_000;

/** The CPU pool's threads that have not ended, and those making a file to download. */
const threads = () => cpuPool().threads()['signed-in'];
const exporting = () => threads().some((t) => t.calls.includes('exportFile'));

/** A pdf's number of pages, and the text (spaces left out) of its first and last. */
async function firstAndLastPage(bytes: Uint8Array) {
  const pdf = await getDocument({ data: bytes, useSystemFonts: false, isEvalSupported: false })
    .promise;
  const text = async (p: number) => {
    const content = await (await pdf.getPage(p)).getTextContent();
    return content.items
      .map((i) => ('str' in i ? i.str : ''))
      .join('')
      .replace(/\s+/g, '');
  };
  const pages = { count: pdf.numPages, first: await text(1), last: await text(pdf.numPages) };
  await pdf.destroy();
  return pages;
}

/**
 * A word longer than any line is cut at the margin by the export itself: pdfkit's own wrapping
 * measured the rest of the word again for each line it filled, and kept each measure, so its
 * time and memory grew with the square of the word's length (20,000 letters: 14 s and 690 MB;
 * 60,000 exhausted the server's heap, on its event loop). The file is made in the CPU pool.
 */
describe('download-response of one very long word', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer();
    token = (await registerUser(server)).token;
  });
  afterAll(async () => server?.close());

  const download = (text: string, signal?: AbortSignal) =>
    server.request('/api/download-response', {
      method: 'POST',
      token,
      json: { text, format: 'pdf' },
      signal,
    });

  it('pdf of the longest answer allowed: 200, every letter kept, /api/health answers meanwhile', async () => {
    let answered = false;
    const pending = download('a'.repeat(LETTERS)).finally(() => (answered = true));
    await expect.poll(exporting, { timeout: 30_000 }).toBe(true);
    const health = await server.request('/api/health');
    expect(health.status).toBe(200);
    expect(answered).toBe(false);

    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toMatch(/filename="downloaded_file.pdf"/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    // Every page but the last is full: the same letters on each, none lost (pdf.js reads a
    // page in some 40 ms, all 126 would take seconds).
    const pages = await firstAndLastPage(bytes);
    expect(pages.first).toMatch(/^a+$/);
    expect(pages.last).toMatch(/^a+$/);
    expect((pages.count - 1) * pages.first.length + pages.last.length).toBe(LETTERS);
  });

  it('a download its client leaves is stopped: the thread making it ends', async () => {
    const leave = new AbortController();
    const pending = download('a'.repeat(LETTERS), leave.signal).catch(() => undefined);
    await expect.poll(exporting, { timeout: 30_000 }).toBe(true);
    const making = threads().find((t) => t.calls.includes('exportFile'))!.threadId;
    leave.abort();
    await pending;
    // A task that ends by itself leaves its thread idle for the next; a stopped one ends it.
    await expect.poll(() => threads().map((t) => t.threadId)).not.toContain(making);
  });
});
