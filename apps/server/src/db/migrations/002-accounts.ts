import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * Accounts on an instance open to the internet: the operator role, disabled accounts, when a user
 * was last seen, invitations, and which account was the first (on a fresh instance it becomes
 * the operator as it registers, while ADMIN_EMAILS is unset). Works unchanged on SQLite and
 * PostgreSQL. It grants no role (issue 26): on an instance that already has users, nobody is an
 * operator until `npm run users -- promote <email>` makes one (012 revokes the role this
 * migration used to give the oldest account).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const idType = sql.raw(dialect === 'postgres' ? 'serial' : 'integer');
  const idColumn = (c: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement();

  // SQLite adds one column per statement.
  await db.schema
    .alterTable('users')
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('user'))
    .execute();
  await db.schema.alterTable('users').addColumn('disabled_at', 'text').execute();
  await db.schema.alterTable('users').addColumn('last_seen_at', 'text').execute();

  await db.schema
    .createTable('invitations')
    .addColumn('id', idType, (c) => idColumn(c))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('invitations_email').on('invitations').column('email').execute();

  // One row at most (id is always 1): the first registration inserts it, every later one finds it
  // taken. The primary key settles a race between two first registrations on any database. It
  // is never removed: when the first account is deleted, no later account inherits the role.
  await db.schema
    .createTable('first_account')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  // An instance that already has accounts: its oldest is the first account, so no later
  // registration becomes the operator. It gets no role: an arbitrary early user of an open
  // instance must not get the Admin page by an upgrade.
  await sql`insert into first_account (id, user_id, created_at)
    select 1, id, ${new Date().toISOString()} from users order by id limit 1`.execute(db);
}
