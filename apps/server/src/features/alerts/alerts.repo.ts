import type { Db } from '../../db/database';
import { nowIso } from '../../lib/time';

/** Operator alerts: the newest uncleared one is shown to every visitor. */
export const alertsRepo = {
  latest: (db: Db) =>
    db
      .selectFrom('alerts')
      .selectAll()
      .where('cleared_at', 'is', null)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst(),

  async set(db: Db, alert: { message: string; severity: string; title?: string }) {
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('alerts')
        .set({ cleared_at: nowIso() })
        .where('cleared_at', 'is', null)
        .execute();
      await trx
        .insertInto('alerts')
        .values({
          message: alert.message,
          severity: alert.severity,
          title: alert.title ?? null,
          created_at: nowIso(),
        })
        .execute();
    });
  },

  clear: (db: Db) =>
    db
      .updateTable('alerts')
      .set({ cleared_at: nowIso() })
      .where('cleared_at', 'is', null)
      .execute(),
};
