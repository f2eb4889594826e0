import type { Db, Dialect } from '../../db/database';
import { nowIso } from '../../lib/time';

/** Data access for users' credentials, sessions (refresh-token families) and reset tokens. */
export const authRepo = {
  findUserByEmail: (db: Db, email: string) =>
    db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst(),

  findUserById: (db: Db, id: number) =>
    db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst(),

  insertUser: (
    db: Db,
    user: { email: string; password_hash: string; first_name: string; last_name: string },
  ) =>
    db
      .insertInto('users')
      .values({ ...user, created_at: nowIso() })
      .returning(['id', 'first_name'])
      .executeTakeFirstOrThrow(),

  /**
   * Records `userId` as the first account ever created, if no account was: true for the one
   * registration that gets there first (the primary key of the single row settles races).
   */
  async claimFirstAccount(db: Db, userId: number): Promise<boolean> {
    const res = await db
      .insertInto('first_account')
      .values({ id: 1, user_id: userId, created_at: nowIso() })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0) === 1;
  },

  setRole: (db: Db, userId: number, role: 'user' | 'operator') =>
    db.updateTable('users').set({ role }).where('id', '=', userId).execute(),

  /** Last sign-in or token refresh: what the Admin page shows as "last seen". */
  touchLastSeen: (db: Db, userId: number) =>
    db.updateTable('users').set({ last_seen_at: nowIso() }).where('id', '=', userId).execute(),

  setPasswordHash: (db: Db, userId: number, password_hash: string) =>
    db.updateTable('users').set({ password_hash }).where('id', '=', userId).execute(),

  insertRefreshToken: (
    db: Db,
    row: { user_id: number; family_id: string; token_hash: string; expires_at: string },
  ) =>
    db
      .insertInto('refresh_tokens')
      .values({ ...row, created_at: nowIso() })
      .execute(),

  /**
   * Records a session's refresh token only while the account is as it was when its password (or
   * its last token) was checked: the same password hash, not disabled. False when it is not. A
   * password change or reset writes the new hash before it revokes the sessions: on PostgreSQL the
   * user's row stays locked (shared) until this insert commits, so that write waits and the
   * revocation then finds this token; SQLite's one connection runs the transaction whole.
   */
  insertRefreshTokenIfUnchanged: (
    db: Db,
    dialect: Dialect,
    row: { user_id: number; family_id: string; token_hash: string; expires_at: string },
    checkedHash: string,
  ) =>
    db.transaction().execute(async (trx) => {
      const unchanged = await trx
        .selectFrom('users')
        .select('id')
        .where('id', '=', row.user_id)
        .where('password_hash', '=', checkedHash)
        .where('disabled_at', 'is', null)
        .$if(dialect === 'postgres', (q) => q.forShare())
        .executeTakeFirst();
      if (!unchanged) return false;
      await trx
        .insertInto('refresh_tokens')
        .values({ ...row, created_at: nowIso() })
        .execute();
      return true;
    }),

  findRefreshToken: (db: Db, token_hash: string) =>
    db
      .selectFrom('refresh_tokens')
      .selectAll()
      .where('token_hash', '=', token_hash)
      .executeTakeFirst(),

  /** Marks one token used; false when it was already used (a concurrent refresh won). */
  async revokeRefreshToken(db: Db, id: number): Promise<boolean> {
    const res = await db
      .updateTable('refresh_tokens')
      .set({ revoked_at: nowIso() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  },

  revokeFamily: (db: Db, family_id: string) =>
    db
      .updateTable('refresh_tokens')
      .set({ revoked_at: nowIso() })
      .where('family_id', '=', family_id)
      .where('revoked_at', 'is', null)
      .execute(),

  revokeAllForUser: (db: Db, user_id: number) =>
    db
      .updateTable('refresh_tokens')
      .set({ revoked_at: nowIso() })
      .where('user_id', '=', user_id)
      .where('revoked_at', 'is', null)
      .execute(),

  insertPasswordReset: (db: Db, row: { user_id: number; token_hash: string; expires_at: string }) =>
    db
      .insertInto('password_resets')
      .values({ ...row, created_at: nowIso() })
      .execute(),

  findPasswordReset: (db: Db, token_hash: string) =>
    db
      .selectFrom('password_resets')
      .selectAll()
      .where('token_hash', '=', token_hash)
      .executeTakeFirst(),

  /** Ends every unused reset link of the user (one was used, the password or email changed). */
  retireResets: (db: Db, user_id: number) =>
    db
      .updateTable('password_resets')
      .set({ used_at: nowIso() })
      .where('user_id', '=', user_id)
      .where('used_at', 'is', null)
      .execute(),

  /** Consumes a reset token once; false when already used. */
  async usePasswordReset(db: Db, id: number): Promise<boolean> {
    const res = await db
      .updateTable('password_resets')
      .set({ used_at: nowIso() })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  },
};
