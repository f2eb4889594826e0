import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../../../test/test-app';
import { cpuPool } from '../../../workers/cpu-pool';
import { extractionPool, registerWithId, uploadOk } from '../../files/testing';
import { SearchIndexer } from './indexer';
import { knowledgeRepo } from './knowledge.repo';
import { indexTerms } from './terms';
import { untilIndexed } from './test-helpers';

/**
 * The indexer's sweep against a file indexed while the sweep reads the pending files: the
 * database's answer still names it, and it must not be indexed a second time (that would throw
 * away the vectors computed for the first index, and the work).
 */
describe('search indexer sweep', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('does not queue again a file indexed while its query ran', async () => {
    const user = await registerWithId(server);
    const file = await uploadOk(server, user.token, 'notes.txt', 'The lighthouse was painted.');
    await untilIndexed(server, user.token);
    // Pending again, as after an upgrade of the index.
    await server.app.db
      .updateTable('search_files')
      .set({ reader: 0 })
      .where('file_id', '=', file.id)
      .execute();

    // The sweep's query answers only once the file is indexed (held after it ran, so the
    // database's connection is free for the indexing).
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let asked = false;
    const db = new Proxy(server.app.db, {
      get(target, prop) {
        const value: unknown = Reflect.get(target, prop);
        if (typeof value !== 'function') return value;
        if (prop !== 'selectFrom' || asked) return value.bind(target);
        return (...args: unknown[]) => {
          asked = true;
          return answeringAfter(value.apply(target, args), gate);
        };
      },
    });
    const deps = { db, dialect: server.dialect, storage: server.app.storage };
    const indexer = new SearchIndexer(deps, server.app.log);
    const sweeping = indexer.sweep();
    expect(asked).toBe(true);
    indexer.add(file.id, user.id);
    await indexer.idle();
    expect(indexer.indexed).toBe(1);

    release();
    await sweeping;
    await indexer.idle();
    expect(indexer.indexed).toBe(1);
    await indexer.stop();
  });
});

/**
 * A folder indexed as a pipeline: while one file's rows are written, the next file's terms are
 * computed (one file at a time left a core idle during each write), and never two files read or
 * two files' terms computed at once (each pool keeps a worker for people); accounts take turns.
 */
describe('search indexer pipeline', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await server?.close();
  });

  it("computes the next file's terms while the last one's rows are written, one read and one computation at a time", async () => {
    const user = await registerWithId(server);
    const files = [];
    for (const name of ['march.txt', 'contract.txt', 'prices.txt'])
      files.push(await uploadOk(server, user.token, name, `The ${name} file says what it says.`));
    await untilIndexed(server, user.token);
    // The app's own indexer stops; the files are pending again, as after an upgrade.
    await server.app.knowledge.stop();
    await server.app.db.updateTable('search_files').set({ reader: 0 }).execute();
    // Their texts read again by the reader's workers, as the upload's index read them.
    await server.app.db.deleteFrom('file_text_cache').execute();

    // The CPU pool's terms computations, counted as they start and end.
    const pool = cpuPool();
    const run = pool.run.bind(pool);
    let computing = 0;
    let mostAtOnce = 0;
    let started = 0;
    let ended = 0;
    let secondStarted!: () => void;
    const second = new Promise<void>((r) => (secondStarted = r));
    let reading = 0;
    let mostReadsAtOnce = 0;
    const reader = extractionPool();
    const read = reader.read.bind(reader);
    vi.spyOn(reader, 'read').mockImplementation((...args) => {
      mostReadsAtOnce = Math.max(mostReadsAtOnce, ++reading);
      return read(...args).finally(() => reading--);
    });
    vi.spyOn(pool, 'run').mockImplementation(async (task, arg, opts) => {
      if (task !== 'searchPassages') return run(task, arg, opts);
      computing++;
      mostAtOnce = Math.max(mostAtOnce, computing);
      if (++started === 2) secondStarted();
      try {
        return await run(task, arg, opts);
      } finally {
        computing--;
        ended++;
      }
    });
    // The first write after the first computation (that file's rows) is held until the second
    // file's computation has started: indexing one file after another would never get there.
    let held = false;
    const db = new Proxy(server.app.db, {
      get(target, prop) {
        const value: unknown = Reflect.get(target, prop);
        if (typeof value !== 'function') return value;
        if (prop !== 'connection' || held || ended === 0 || started > 1) return value.bind(target);
        held = true;
        return () => {
          const conn = target.connection();
          return {
            execute: async <T>(f: Parameters<typeof conn.execute<T>>[0]) => {
              await second;
              return conn.execute(f);
            },
          };
        };
      },
    });
    const indexer = new SearchIndexer(
      { db, dialect: server.dialect, storage: server.app.storage },
      server.app.log,
    );
    for (const f of files) indexer.add(f.id, user.id);
    await indexer.idle();

    expect(held).toBe(true);
    expect(indexer.indexed).toBe(3);
    expect(mostAtOnce).toBe(1);
    // Their texts are read one at a time too.
    expect(mostReadsAtOnce).toBe(1);
    expect((await untilIndexed(server, user.token)).map((f) => f.search)).toEqual([
      'searchable',
      'searchable',
      'searchable',
    ]);
    await indexer.stop();
  });

  it("indexes another account's upload after one more file of a busy account, not after all", async () => {
    // One account uploading file after file (each newest one first) kept another account's
    // upload waiting behind every one of them. Only this test's indexer reads: the files'
    // texts are read by it, in the order it takes them.
    vi.restoreAllMocks();
    await server.app.knowledge.stop();
    const [ann, bo] = [await registerWithId(server), await registerWithId(server)];
    const upload = async (user: { token: string; id: number }, text: string) => ({
      id: (await uploadOk(server, user.token, `${text}.txt`, text)).id,
      user: user.id,
    });
    const annFiles = [];
    for (const n of [1, 2, 3, 4, 5, 6]) annFiles.push(await upload(ann, `ann${n}`));
    const boFile = await upload(bo, 'bo1');

    // The reads in the order they start; the first is held until every file is queued.
    const reader = extractionPool();
    const read = reader.read.bind(reader);
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    vi.spyOn(reader, 'read').mockImplementation(async (...args) => {
      order.push(Buffer.from(args[1]).toString());
      if (order.length === 1) await held;
      return read(...args);
    });
    const indexer = new SearchIndexer(
      { db: server.app.db, dialect: server.dialect, storage: server.app.storage },
      server.app.log,
    );
    // Ann's uploads come one after another; Bo's comes among them.
    for (const f of annFiles.slice(0, 3)) indexer.add(f.id, f.user);
    await expect.poll(() => order.length).toBe(1);
    indexer.add(boFile.id, boFile.user);
    for (const f of annFiles.slice(3)) indexer.add(f.id, f.user);
    release();
    await indexer.idle();

    // Two of Ann's files were taken before Bo's came (two in flight); his is next, then hers,
    // newest first.
    expect(order).toEqual(['ann1', 'ann2', 'bo1', 'ann6', 'ann5', 'ann4', 'ann3']);
    await indexer.stop();
  });

  it("computes no terms for a file deleted after its read, while it waited for another's", async () => {
    vi.restoreAllMocks();
    await server.app.knowledge.stop();
    const user = await registerWithId(server);
    const first = await uploadOk(server, user.token, 'first.txt', 'first file');
    const second = await uploadOk(server, user.token, 'second.txt', 'second file');

    // The first file's computation is held; the second's read is watched until it has ended.
    const reader = extractionPool();
    const read = reader.read.bind(reader);
    let secondRead!: () => void;
    const secondReadDone = new Promise<void>((r) => (secondRead = r));
    vi.spyOn(reader, 'read').mockImplementation(async (...args) => {
      const out = await read(...args);
      if (Buffer.from(args[1]).toString() === 'second file') secondRead();
      return out;
    });
    const pool = cpuPool();
    const run = pool.run.bind(pool);
    const computed: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    vi.spyOn(pool, 'run').mockImplementation(async (task, arg, opts) => {
      if (task !== 'searchPassages') return run(task, arg, opts);
      computed.push((arg as { text: string }).text);
      if (computed.length === 1) await held;
      return run(task, arg, opts);
    });
    const indexer = new SearchIndexer(
      { db: server.app.db, dialect: server.dialect, storage: server.app.storage },
      server.app.log,
    );
    indexer.add(first.id, user.id);
    indexer.add(second.id, user.id);
    await secondReadDone;
    await expect.poll(() => computed.length).toBe(1);
    const res = await server.request(`/api/delete_file/${second.id}`, {
      method: 'DELETE',
      token: user.token,
    });
    expect(res.status).toBe(200);
    release();
    await indexer.idle();

    expect(computed).toEqual(['first file']);
    expect(indexer.indexed).toBe(1);
    await indexer.stop();
  });
});

/** A query builder whose `execute` resolves only after `gate`, its chain of calls kept. */
function answeringAfter<T extends object>(builder: T, gate: Promise<void>): T {
  return new Proxy(builder, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const out: unknown = value.apply(target, args);
        if (prop === 'execute')
          return (out as Promise<unknown>).then(async (rows) => {
            await gate;
            return rows;
          });
        return out && typeof out === 'object' ? answeringAfter(out, gate) : out;
      };
    },
  });
}

/**
 * SQLite's index merges its segments only at 16 while files are indexed (a folder's upload
 * indexed at 6.0-6.3 MB/s, not 5.4, migration 043); once no file waits, the indexer merges the
 * rest, so questions do not read a segment per file uploaded.
 */
describe('search index segments (SQLite)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  const segments = async () =>
    Number(
      (
        await sql<{ n: number }>`select count(distinct segid) as n from search_fts_idx`.execute(
          server.app.db,
        )
      ).rows[0]!.n,
    );

  it('are merged when the indexer is idle, and every file is still found', async () => {
    const user = await registerWithId(server);
    // Each file's rows are a transaction of their own: a segment each, 15 below the automerge.
    for (let i = 0; i < 15; i++) {
      await uploadOk(server, user.token, `ship-${i}.txt`, `The ship number${i} sailed at dawn.`);
      await untilIndexed(server, user.token);
    }
    // Nothing left to merge (a level of 4 or more segments is merged) once the indexer is idle.
    await expect.poll(segments, { timeout: 30_000 }).toBeLessThan(4);
    // The integrity check throws on a damaged index.
    await sql`insert into search_fts(search_fts) values ('integrity-check')`.execute(server.app.db);
    for (const i of [0, 7, 14]) {
      const hits = await knowledgeRepo.search(server.app.db, server.dialect, {
        userId: user.id,
        terms: indexTerms(`number${i}`, 'en'),
        limit: 3,
      });
      expect(hits.map((h) => h.file_name)).toEqual([`ship-${i}.txt`]);
    }
  });
});
