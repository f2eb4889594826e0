import { randomBytes } from 'node:crypto';
import { getEventListeners } from 'node:events';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { PgBossJobQueue } from './pg-boss-job-queue';

/**
 * The pg-boss queue as a deployment starts it: several processes (app servers and a worker) come
 * up together on one new database. Each queue here has its own connections, as a process does.
 */
const databaseUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!databaseUrl)('pg-boss job queue (needs TEST_DATABASE_URL: PostgreSQL)', () => {
  const schemas: string[] = [];
  afterAll(async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.end();
  });

  it('starts in six processes at once on a new database, and each message is taken once', async () => {
    // A few rounds: pg-boss's queue creation deadlocked between processes starting together
    // (PostgreSQL aborts one; that server's start failed), and a race does not lose every time.
    for (let round = 0; round < 3; round++) {
      const schema = `boss_${randomBytes(5).toString('hex')}`;
      schemas.push(schema);
      const queues = Array.from(
        { length: 6 },
        () => new PgBossJobQueue({ connectionString: databaseUrl!, schema, maxRunSeconds: 60 }),
      );
      const taken: string[] = [];
      try {
        await Promise.all(
          queues.map((q) =>
            q.consume(1, async (jobId) => {
              taken.push(jobId);
            }),
          ),
        );
        const sent = Array.from({ length: 12 }, (_, i) => `job-${round}-${i}`);
        for (const jobId of sent) await queues[0]!.enqueue(jobId);
        await expect.poll(() => taken.length, { timeout: 20_000 }).toBe(sent.length);
        expect([...taken].sort()).toEqual([...sent].sort());
      } finally {
        await Promise.all(queues.map((q) => q.close()));
      }
    }
  });

  it('an idle consumer keeps one listener on its wake signal, not one per poll', async () => {
    const schema = `boss_${randomBytes(5).toString('hex')}`;
    schemas.push(schema);
    const queue = new PgBossJobQueue({ connectionString: databaseUrl!, schema, maxRunSeconds: 60 });
    const polls: number[] = [];
    const wake = () => (queue as unknown as { wake: AbortController }).wake.signal;
    try {
      await queue.consume(1, async () => undefined);
      // Each quiet poll asks pg-boss once: wait for several of them, then count the listeners.
      const boss = (queue as unknown as { boss: { fetch: (...a: unknown[]) => unknown } }).boss;
      const fetch = boss.fetch.bind(boss);
      boss.fetch = (...a: unknown[]) => (polls.push(Date.now()), fetch(...a));
      await expect.poll(() => polls.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(6);
      expect(getEventListeners(wake(), 'abort').length).toBeLessThanOrEqual(1);
    } finally {
      await queue.close();
    }
  });
});
