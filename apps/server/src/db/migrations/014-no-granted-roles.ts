import type { Kysely } from 'kysely';
import { sql } from 'kysely';

/**
 * No migration grants a role (issue 26). Migration 002 used to make the oldest account of an
 * upgraded instance its operator; this takes that role back. It is recognised by its record:
 * the first account recorded when the migration ran, well after that account was created (a
 * registration records itself at once). The operator of an upgraded instance is then made with
 * `npm run users -- promote <email>` (or ADMIN_EMAILS).
 */
const RECORDED_BY_MIGRATION_AFTER_MS = 60_000;

export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ user_id: number; recorded: string; created: string }>`
    select f.user_id, f.created_at as recorded, u.created_at as created
    from first_account f join users u on u.id = f.user_id
    where f.id = 1 and u.role = 'operator'`.execute(db);
  const first = rows[0];
  if (!first) return;
  if (Date.parse(first.recorded) - Date.parse(first.created) < RECORDED_BY_MIGRATION_AFTER_MS)
    return;
  await sql`update users set role = 'user' where id = ${first.user_id}`.execute(db);
}
