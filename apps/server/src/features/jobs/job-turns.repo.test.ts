import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/test-app';
import { openDatabase, type DatabaseHandle, type Db } from '../../db/database';
import { jobTurnsRepo } from './job-turns.repo';

/**
 * Turns between owners for jobs, on the job table of SQLite and of PostgreSQL (each test in its
 * own schema): who starts next, the per-owner caps, and several claimers at once.
 */
describe.each(testDialects())('job turns (%s)', (dialect) => {
  let handle: DatabaseHandle | undefined;
  let dataDir: string | undefined;
  let pgSchema: string | undefined;
  afterEach(async () => {
    if (handle && pgSchema) await handle.db.schema.dropSchema(pgSchema).cascade().execute();
    await handle?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  async function open(): Promise<Db> {
    dataDir = mkdtempSync(path.join(tmpdir(), 'inkwell-turns-'));
    pgSchema = dialect === 'postgres' ? `t_${randomBytes(6).toString('hex')}` : undefined;
    handle = await openDatabase({
      dataDir,
      databaseUrl: dialect === 'postgres' ? process.env.TEST_DATABASE_URL : undefined,
      pgSchema,
    });
    return handle.db;
  }

  let clock = Date.parse('2026-01-01T00:00:00Z');
  const iso = () => new Date((clock += 1000)).toISOString();
  const add = (db: Db, id: string, owner: string, maxQueued = 100) =>
    jobTurnsRepo.insertWithinCap(
      db,
      dialect,
      { id, owner, user_id: null, kind: 'seo', input: '{}', created_at: iso() },
      maxQueued,
    );
  const claim = async (db: Db, perOwner = 2) =>
    (await jobTurnsRepo.claimNext(db, dialect, 'w1', iso(), perOwner))?.jobId;
  const finish = (db: Db, id: string) =>
    db.updateTable('jobs').set({ state: 'done' }).where('id', '=', id).execute();

  it('starts jobs in turn by owner, the least recently served first, within JOBS_PER_USER', async () => {
    const db = await open();
    for (let i = 1; i <= 4; i++) await add(db, `A${i}`, '1');
    await add(db, 'B1', '2');
    await add(db, 'C1', 'ip:10.0.0.7');
    const started = [await claim(db), await claim(db), await claim(db), await claim(db)];
    // First come across owners would have been A1, A2, A3, A4.
    expect(started).toEqual(['A1', 'B1', 'C1', 'A2']);
    // Owner 1 runs its cap of 2: its next job waits though nothing else does.
    expect(await claim(db)).toBeUndefined();
    await finish(db, 'A1');
    expect(await claim(db)).toBe('A3');
    // A newcomer goes before the owner already served.
    await finish(db, 'A2');
    await add(db, 'D1', '4');
    expect(await claim(db)).toBe('D1');
    expect(await claim(db)).toBe('A4');
  });

  it('refuses a job beyond JOBS_QUEUED_PER_USER waiting, and stores nothing of it', async () => {
    const db = await open();
    expect(await add(db, 'A1', '1', 2)).toEqual({ inserted: true });
    expect(await add(db, 'A2', '1', 2)).toEqual({ inserted: true });
    expect(await add(db, 'A3', '1', 2)).toEqual({ inserted: false, waiting: 2 });
    expect(await add(db, 'B1', '2', 2)).toEqual({ inserted: true });
    const ids = await db.selectFrom('jobs').select('id').orderBy('id').execute();
    expect(ids.map((r) => r.id)).toEqual(['A1', 'A2', 'B1']);
    // A running job no longer waits: room for one more.
    expect(await claim(db)).toBe('A1');
    expect(await add(db, 'A3', '1', 2)).toEqual({ inserted: true });
  });

  it('forgets idle owners, and gives a queued job whose owner row went missing its row back', async () => {
    const db = await open();
    await add(db, 'A1', '1');
    await add(db, 'B1', '2');
    expect(await claim(db)).toBe('A1');
    await db.deleteFrom('jobs').where('id', '=', 'A1').execute();
    await db.deleteFrom('job_owners').where('owner', '=', '2').execute();
    await jobTurnsRepo.forgetIdleOwners(db);
    const owners = await db.selectFrom('job_owners').select(['owner', 'served_at']).execute();
    expect(owners).toEqual([{ owner: '2', served_at: null }]);
    expect(await claim(db)).toBe('B1');
  });

  it('never starts more than JOBS_PER_USER of one owner, whatever claims at once', async () => {
    const db = await open();
    for (let i = 1; i <= 6; i++) await add(db, `A${i}`, '1');
    await add(db, 'B1', '2');
    const claims = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        jobTurnsRepo
          .claimNext(db, dialect, `w${i}`, iso(), 2)
          .then((c) => c?.jobId)
          .catch(() => undefined),
      ),
    );
    const started = claims.filter((id) => id !== undefined).sort();
    expect(started.filter((id) => id.startsWith('A'))).toHaveLength(2);
    expect(started).toContain('B1');
    const running = await db
      .selectFrom('jobs')
      .select('id')
      .where('state', '=', 'running')
      .execute();
    expect(running.map((r) => r.id).sort()).toEqual(started);
  });
});
