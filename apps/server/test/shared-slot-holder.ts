import { openDatabase } from '../src/db/database';
import { SharedSlots } from '../src/features/ai';

/**
 * A process that takes slots of the shared model (features/ai/scheduling/shared-slots.ts) and holds them
 * until it is killed: the shared-slots test kills it to see its slots come free.
 * Env: DATABASE_URL, PG_SCHEMA, SLOTS (capacity), TAKE (how many to take).
 */
const handle = await openDatabase({
  databaseUrl: process.env.DATABASE_URL,
  dataDir: '.',
  pgSchema: process.env.PG_SCHEMA,
});
const slots = new SharedSlots(handle.db, Number(process.env.SLOTS ?? 2));
for (let i = 0; i < Number(process.env.TAKE ?? 1); i++)
  await slots.acquire('interactive', 'holder');
console.log('held');
setInterval(() => {}, 60_000);
