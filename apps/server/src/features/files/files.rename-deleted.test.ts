import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database';
import { startTestServer, testDialects, type TestServer } from '../../../test/test-app';
import { renameFile } from './files.service';
import { registerWithId, uploadOk } from './test-helpers';

/**
 * A rename reads the file, then writes its new name. A delete that lands in between (another tab,
 * another server) left the write with no row, and the rename answered 500: it is a 404, as for
 * any other file that is not there.
 */
describe.each(testDialects())('renaming a file deleted meanwhile (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(() => server?.close());

  /** `db` whose updates run only after the file's row was deleted: the delete wins the race. */
  function deletedBeforeUpdate(db: Db, fileId: number): Db {
    const remove = () => db.deleteFrom('files').where('id', '=', fileId).execute();
    const racing = <T extends object>(builder: T): T =>
      new Proxy(builder, {
        get(target, prop) {
          const value: unknown = Reflect.get(target, prop); // target: Kysely reads #private fields
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            if (String(prop).startsWith('execute'))
              return remove().then(() => value.apply(target, args));
            const next: unknown = value.apply(target, args);
            return typeof next === 'object' && next !== null ? racing(next) : next;
          };
        },
      });
    return new Proxy(db, {
      get(target, prop) {
        const value: unknown = Reflect.get(target, prop); // target: Kysely reads #private fields
        if (typeof value !== 'function') return value;
        if (prop !== 'updateTable') return value.bind(target);
        return (...args: unknown[]) => racing(value.apply(target, args) as object);
      },
    });
  }

  it('answers 404 File not found, and nothing is left behind', async () => {
    const user = await registerWithId(server);
    const file = await uploadOk(server, user.token, 'notes.txt', 'Some notes.');
    const deps = {
      db: deletedBeforeUpdate(server.app.db, file.id),
      dialect: server.dialect,
      storage: server.app.storage,
    };
    await expect(renameFile(deps, user.id, file.id, 'renamed')).rejects.toMatchObject({
      statusCode: 404,
      message: 'File not found',
    });
    const rows = await server.app.db
      .selectFrom('files')
      .select('id')
      .where('id', '=', file.id)
      .execute();
    expect(rows).toEqual([]);
  });
});
