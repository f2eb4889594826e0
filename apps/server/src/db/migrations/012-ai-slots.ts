import type { Kysely } from 'kysely';

/**
 * The model server's slots, shared by every app server and worker on one PostgreSQL database
 * (features/ai/scheduling/shared-slots.ts): a row per slot, held by one call at a time under a lease that
 * its process renews; a process that dies lets its leases expire within seconds.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ai_slots')
    .addColumn('slot', 'integer', (c) => c.primaryKey())
    // The process holding it (null: free).
    .addColumn('holder', 'text')
    .addColumn('owner', 'text')
    // Milliseconds since the epoch, by the database's clock: a lease past it is free.
    .addColumn('expires_at', 'bigint')
    .execute();
  // Batch calls waiting for a slot, in every process (renewed while they wait), and when each
  // owner was last given one: the owner served least recently goes next, whichever process asks.
  await db.schema
    .createTable('ai_slot_waiters')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('since', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('ai_slot_turns')
    .addColumn('owner', 'text', (c) => c.primaryKey())
    .addColumn('served_at', 'bigint', (c) => c.notNull())
    .execute();
}
