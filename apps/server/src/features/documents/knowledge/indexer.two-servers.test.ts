import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startOpenAITestServer, type OpenAITestServer } from '../../../../test/openai-test-server';
import { startTestServer, testDialects, type TestServer } from '../../../../test/test-app';
import { cpuPool } from '../../../workers/cpu-pool';
import { embedderFromConfig } from '../retrieval/embeddings';
import { extractionPool, registerWithId, uploadOk } from '../../files/testing';
import { SearchIndexer } from './indexer';
import { knowledgeRepo } from './knowledge.repo';
import { indexTerms } from './terms';
import { myFiles, untilIndexed } from './test-helpers';
import { VectorIndexer } from './vector-indexer';

/**
 * App servers sharing one database each run the search indexer and its sweep. Nothing claimed a
 * file: after an upgrade or a folder's upload, every server read (OCR for scans), computed and
 * wrote the same files, and the later write threw away the vectors computed after the first.
 */

/** How many times each text was read by the reader's workers, and had its terms computed. */
function countWork() {
  const reads = new Map<string, number>();
  const computed = new Map<string, number>();
  const reader = extractionPool();
  const read = reader.read.bind(reader);
  vi.spyOn(reader, 'read').mockImplementation((...args) => {
    const text = Buffer.from(args[1]).toString();
    reads.set(text, (reads.get(text) ?? 0) + 1);
    return read(...args);
  });
  const pool = cpuPool();
  const run = pool.run.bind(pool);
  vi.spyOn(pool, 'run').mockImplementation((task, arg, opts) => {
    if (task === 'searchPassages') {
      const { text } = arg as { text: string };
      computed.set(text, (computed.get(text) ?? 0) + 1);
    }
    return run(task, arg, opts);
  });
  return { reads, computed };
}

const indexerOf = (server: TestServer) =>
  new SearchIndexer(
    { db: server.app.db, dialect: server.dialect, storage: server.app.storage },
    server.app.log,
  );

/** Two app servers on one database, their own indexers stopped: each test runs its own. */
async function twoServers(dialect: 'sqlite' | 'postgres', env: Record<string, string> = {}) {
  const first = await startTestServer({ dialect, env });
  const second = await startTestServer({ sharing: first, env });
  for (const s of [first, second]) {
    await s.app.knowledge.stop();
    await s.app.knowledgeVectors?.stop();
  }
  return [first, second] as const;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('two indexers on one PostgreSQL', () => {
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    [first, second] = await twoServers('postgres');
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('read and index each pending file once between them; every file is searchable', async () => {
    const user = await registerWithId(first);
    const texts = Array.from({ length: 6 }, (_, i) => `Log ${i}: the keeper${i} lit the lamp.`);
    for (const [i, text] of texts.entries())
      await uploadOk(first, user.token, `log-${i}.txt`, text);
    const { reads, computed } = countWork();

    // Both sweeps find the same pending files (as after an upgrade, or a folder's upload).
    const [a, b] = [indexerOf(first), indexerOf(second)];
    await Promise.all([a.sweep(), b.sweep()]);
    await Promise.all([a.idle(), b.idle()]);

    for (const text of texts) {
      expect(reads.get(text), text).toBe(1);
      expect(computed.get(text), text).toBe(1);
    }
    expect(a.indexed + b.indexed).toBe(texts.length);
    expect((await myFiles(second, user.token)).map((f) => f.search)).toEqual(
      texts.map(() => 'searchable'),
    );
    const hits = await knowledgeRepo.search(second.app.db, 'postgres', {
      userId: user.id,
      terms: indexTerms('keeper4', 'en'),
      limit: 3,
    });
    expect(hits.map((h) => h.file_name)).toEqual(['log-4.txt']);
    await Promise.all([a.stop(), b.stop()]);
  });
});

describe.each(testDialects())('a file indexed by another server while queued (%s)', (dialect) => {
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    [first, second] = await twoServers(dialect);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('is not read nor indexed again', async () => {
    const user = await registerWithId(first);
    const hold = [];
    for (const name of ['hold-1', 'hold-2'])
      hold.push(await uploadOk(first, user.token, `${name}.txt`, name));
    const target = await uploadOk(first, user.token, 'target.txt', 'The target file.');
    const { computed } = countWork();
    // The second server's lanes are busy with the hold files (their reads held), the target
    // queued behind them.
    const reader = extractionPool();
    const read = reader.read.bind(reader);
    let heldReads = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    vi.spyOn(reader, 'read').mockImplementation(async (...args) => {
      if (Buffer.from(args[1]).toString().startsWith('hold')) {
        heldReads++;
        await gate;
      }
      return read(...args);
    });
    const [a, b] = [indexerOf(first), indexerOf(second)];
    for (const f of [...hold, target]) b.add(f.id, user.id);
    await expect.poll(() => heldReads).toBe(1);

    // Meanwhile the first server indexes the target.
    a.add(target.id, user.id);
    await a.idle();
    expect(a.indexed).toBe(1);
    release();
    await b.idle();

    expect(computed.get('The target file.')).toBe(1);
    expect(b.indexed).toBe(2);
    expect((await untilIndexed(second, user.token)).map((f) => f.search)).toEqual([
      'searchable',
      'searchable',
      'searchable',
    ]);
    await Promise.all([a.stop(), b.stop()]);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('two vector indexers on one PostgreSQL', () => {
  let model: OpenAITestServer;
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    model = await startOpenAITestServer({ embed: () => [1, 0.5, 0.25] });
    [first, second] = await twoServers('postgres', {
      AI_BASE_URL: model.url,
      AI_EMBEDDINGS_MODEL: 'test-embed',
      AI_PARALLEL: '3',
    });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await model?.close();
  });

  it("embed each file's passages once between them", async () => {
    const user = await registerWithId(first);
    const files = [];
    for (const i of [1, 2, 3, 4])
      files.push(await uploadOk(first, user.token, `note-${i}.txt`, `Note ${i}: fog at dawn.`));
    const index = indexerOf(first);
    for (const f of files) index.add(f.id, user.id);
    await index.idle();
    await index.stop();

    const vectorsOf = (s: TestServer) =>
      new VectorIndexer(
        {
          db: s.app.db,
          dialect: 'postgres',
          ai: s.app.ai,
          embedder: embedderFromConfig(s.app.config)!,
        },
        s.app.log,
      );
    const [a, b] = [vectorsOf(first), vectorsOf(second)];
    a.poke();
    b.poke();
    await Promise.all([a.settled(), b.settled()]);

    // One request a file (its passages in one batch), not one from each server.
    expect(model.embeddingRequests).toHaveLength(files.length);
    const progress = await knowledgeRepo.progress(second.app.db, 'test-embed');
    expect(progress.with_vectors).toBe(files.length);
    await Promise.all([a.stop(), b.stop()]);
  });
});
