import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { startPrivatePostgres, type PrivatePostgres } from '../../test/private-services';
import { openDatabase, type DatabaseHandle } from './database';

/**
 * Issue 36, found by the PostgreSQL restart test: a restart ends every session, and each pooled
 * connection then emits `error` (an idle one through the pool, one held by a transaction on
 * itself). Without listeners, Node threw them as uncaught exceptions and the server ended. Here a
 * private PostgreSQL (never the shared one) is stopped under an idle pool and an open transaction:
 * nothing is thrown (Vitest fails a run on an uncaught exception), the idle failures are reported,
 * and the database serves again once PostgreSQL is back.
 */
describe.skipIf(!existsSync('/usr/lib/postgresql'))(
  'the database through a PostgreSQL restart',
  () => {
    let pg: PrivatePostgres | undefined;
    let handle: DatabaseHandle | undefined;
    const dataDir = mkdtempSync(path.join(tmpdir(), 'inkwell-db-restart-'));
    afterAll(async () => {
      await handle?.close();
      await pg?.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('survives its connections being cut, and serves again after', async () => {
      pg = await startPrivatePostgres();
      const idleErrors: Error[] = [];
      handle = await openDatabase({
        databaseUrl: pg.url,
        dataDir,
        onIdleConnectionError: (err) => idleErrors.push(err),
      });
      const { db } = handle;
      // Several pooled connections, idle once these end.
      await Promise.all(Array.from({ length: 4 }, () => sql`select pg_sleep(0.05)`.execute(db)));
      // And one held by a transaction while PostgreSQL stops.
      let stopped!: () => void;
      const afterStop = new Promise<void>((resolve) => (stopped = resolve));
      const transaction = db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        await afterStop;
        await sql`select 1`.execute(trx);
      });
      const cut = transaction.then(
        () => 'committed',
        (err: Error) => err.message,
      );

      await pg.stop('fast');
      stopped();
      expect(await cut).not.toBe('committed');
      await expect.poll(() => idleErrors.length).toBeGreaterThan(0);
      expect(idleErrors[0]!.message).toMatch(/terminating connection|Connection terminated/);

      await pg.start();
      // The pool replaces the cut connections: the next queries are served.
      const rows = await Promise.all(
        Array.from({ length: 4 }, () => sql<{ n: number }>`select 1 as n`.execute(db)),
      );
      expect(rows.map((r) => r.rows[0]!.n)).toEqual([1, 1, 1, 1]);
    }, 120_000);
  },
);
