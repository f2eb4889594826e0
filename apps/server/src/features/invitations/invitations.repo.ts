import type { Db } from '../../db/database';
import { nowIso } from '../../lib/time';

/** Invitations: single-use sign-up links for one address; only the token's SHA-256 is stored. */
export const invitationsRepo = {
  insert: (
    db: Db,
    row: { email: string; token_hash: string; invited_by: number | null; expires_at: string },
  ) =>
    db
      .insertInto('invitations')
      .values({ ...row, created_at: nowIso() })
      .execute(),

  accountExists: async (db: Db, email: string) =>
    Boolean(
      await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst(),
    ),

  findByTokenHash: (db: Db, token_hash: string) =>
    db
      .selectFrom('invitations')
      .selectAll()
      .where('token_hash', '=', token_hash)
      .executeTakeFirst(),

  /** Consumes one invitation; false when it was already used (a concurrent sign-up won). */
  async use(db: Db, id: number): Promise<boolean> {
    const res = await db
      .updateTable('invitations')
      .set({ used_at: nowIso() })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  },

  /** Ends every other open invitation of the address once it has an account. */
  retireForEmail: (db: Db, email: string) =>
    db
      .updateTable('invitations')
      .set({ used_at: nowIso() })
      .where('email', '=', email)
      .where('used_at', 'is', null)
      .execute(),
};
