import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../../test/test-app';
import { registerWithId, uploadOk } from '../../files/testing';
import { SearchIndexer } from './indexer';
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
