import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../../../test/test-app';
import { configureReader, isReadAgainInBackground } from '../../files';
import { extractionPool, makeScannedPdf, registerWithId, uploadOk } from '../../files/testing';
import { SearchIndexer } from './indexer';
import { knowledgeRepo } from './knowledge.repo';
import { indexTerms } from './terms';
import { myFiles, untilIndexed } from './test-helpers';

/**
 * A scan whose read the reader's time limit cut short is read again in the background
 * (files.service.ts). The sweep (every 15 s) found it pending and read it in full again each
 * time, throwing the text away; and when the background read ran out of its time too, nothing
 * was kept, so every sweep started both reads anew, forever.
 */
const LIMIT_MS = 3000;

describe('the search index of a scan whose read was cut short', () => {
  let server: TestServer;
  let user: { token: string; id: number };
  /** Reads handed to the reader's workers, and those of the background reads (a longer limit). */
  let reads = 0;
  let backgroundReads = 0;
  let holdBackground: Promise<void> | undefined;
  let release = () => {};

  beforeAll(async () => {
    server = await startTestServer();
    user = await registerWithId(server);
    // The worker loads pdf.js and tesseract on its first scan, with the usual limit.
    await uploadOk(server, user.token, 'Warm.pdf', await makeScannedPdf([['COLD STORAGE']]));
    await untilIndexed(server, user.token);
    // Only each test's own indexer reads from here on.
    await server.app.knowledge.stop();
    // 2 s for OCR (less the reader's 1 s margin): no machine reads five dense pages in it.
    configureReader({ ocrLanguages: ['eng'], timeLimitMs: LIMIT_MS });
    const reader = extractionPool();
    const read = reader.read.bind(reader);
    vi.spyOn(reader, 'read').mockImplementation(async (...args) => {
      reads++;
      if (args[2].timeLimitMs > LIMIT_MS) {
        backgroundReads++;
        await holdBackground;
      }
      return read(...args);
    });
  });
  afterEach(() => {
    release(); // a failed test's held read ends, so it reads nothing into the next one
    holdBackground = undefined;
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    configureReader({ ocrLanguages: ['eng'] });
    await server?.close();
  });

  const indexer = (backgroundReadMs: number) =>
    new SearchIndexer(
      { db: server.app.db, dialect: server.dialect, storage: server.app.storage, backgroundReadMs },
      server.app.log,
    );
  const sweep = async (i: SearchIndexer) => {
    await i.sweep();
    await i.idle();
  };
  const stateOf = async (fileId: number) =>
    (await myFiles(server, user.token)).find((f) => f.id === fileId)?.search;

  it('is not read again by the sweeps while its background read runs', async () => {
    holdBackground = new Promise<void>((r) => (release = r));
    const dense = Array.from({ length: 20 }, () => 'HELLO WORLD OLD PAPER HELLO WORLD');
    const pages = [dense, dense, dense, dense, ['LAST SHEET', ...dense]];
    const file = await uploadOk(server, user.token, 'Held.pdf', await makeScannedPdf(pages));
    const index = indexer(600_000);
    index.add(file.id, user.id);
    await index.idle();
    // The index's read was cut short; the background read has reached the reader and is held.
    await expect.poll(() => backgroundReads).toBe(1);
    expect(isReadAgainInBackground(server.app.db, file.id)).toBe(true);

    const before = reads;
    for (let i = 0; i < 3; i++) await sweep(index);
    expect(reads).toBe(before);
    expect(await stateOf(file.id)).toBe('reading');

    release();
    await expect
      .poll(() => isReadAgainInBackground(server.app.db, file.id), { timeout: 120_000 })
      .toBe(false);
    // Indexed from the background read's text (cached): no read of its own.
    const after = reads;
    await sweep(index);
    expect(await stateOf(file.id)).toBe('searchable');
    expect(reads).toBe(after);
    expect(index.indexed).toBe(1);
    await index.stop();
  }, 180_000);

  it('indexes what a background read cut short too could read, and reads it no more', async () => {
    // A short first page, then more dense pages than OCR reads in the background read's time.
    const dense = Array.from({ length: 20 }, () => 'HELLO WORLD OLD PAPER HELLO WORLD');
    const pages = [['GOLD STAR'], ...Array.from({ length: 25 }, () => dense)];
    const file = await uploadOk(server, user.token, 'Endless.pdf', await makeScannedPdf(pages));
    const index = indexer(3 * LIMIT_MS);
    index.add(file.id, user.id);
    await index.idle();
    expect(isReadAgainInBackground(server.app.db, file.id)).toBe(true);
    await expect
      .poll(() => isReadAgainInBackground(server.app.db, file.id), { timeout: 60_000 })
      .toBe(false);

    const before = reads;
    for (let i = 0; i < 3; i++) await sweep(index);
    expect(reads).toBe(before);
    expect(await stateOf(file.id)).toBe('searchable');
    expect(index.indexed).toBe(1);
    const hits = await knowledgeRepo.search(server.app.db, server.dialect, {
      userId: user.id,
      terms: indexTerms('gold star', 'en'),
      limit: 3,
    });
    expect(hits.map((h) => h.file_name)).toEqual(['Endless.pdf']);
    // Its preview says it was cut short, and reads nothing either.
    const res = await server.request(`/api/preview_file/${file.id}?format=text`, {
      token: user.token,
    });
    expect(((await res.json()) as { truncated: boolean }).truncated).toBe(true);
    expect(reads).toBe(before);
    await index.stop();
  }, 120_000);
});
