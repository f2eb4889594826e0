import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { JobKind } from '@inkwell/contract';
import { startTestServer, testDialects, type TestServer } from '../../../test/test-app';
import { jobTurnsRepo } from './job-turns.repo';
import { jobsRepo } from './jobs.repo';

/**
 * Issue 36: a fault of the job's bookkeeping (the disk full, an I/O error, a busy database) while
 * a job is claimed, read or ended escaped as an unhandled rejection, and Node ended the server.
 * Each step here fails for a while as the database would: the server keeps serving, the step is
 * tried again, and the job is finished with its result once the fault clears. (An unhandled
 * rejection fails this run too: Vitest reports it.) A job's own work cut by the database (found
 * in the PostgreSQL restart test) is tried again too, not stored as failed.
 */
const KIND = 'bookkeeping-test' as JobKind;
const CUT = 'database-cut-test' as JobKind;

const diskFull = () =>
  Object.assign(new Error('SqliteError: database or disk is full'), { code: 'SQLITE_FULL' });
const ioError = () => Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' });

const faults = [
  { step: 'claim', inject: () => vi.spyOn(jobTurnsRepo, 'claimNext').mockRejectedValue(ioError()) },
  { step: 'find', inject: () => vi.spyOn(jobsRepo, 'find').mockRejectedValue(ioError()) },
  { step: 'finish', inject: () => vi.spyOn(jobsRepo, 'finish').mockRejectedValue(diskFull()) },
];

describe.each(testDialects())('job bookkeeping faults (%s)', (dialect) => {
  let server: TestServer;
  const gates: (() => void)[] = [];
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    server.app.jobs.register(KIND, async ({ input }) => {
      // Each job waits for the test to let it end, so a fault can be set before its end.
      await new Promise<void>((release) => gates.push(release));
      return { echoed: (input as { word: string }).word };
    });
  });
  afterEach(() => vi.restoreAllMocks());
  afterAll(async () => {
    for (const release of gates) release();
    await server?.close();
  });

  const stateOf = async (id: string) => (await jobsRepo.find(server.app.db, id))?.state;

  it.each(faults)(
    'a failing $step is retried; the server serves meanwhile',
    async ({ step, inject }) => {
      const before = gates.length;
      // A claim's fault must be there before the job is queued; the others once it runs.
      let fault = step === 'claim' ? inject() : undefined;
      if (step === 'find') fault = inject();
      const id = await server.app.jobs.create({
        kind: KIND,
        userId: null,
        about: {},
        input: { word: step },
      });
      if (step === 'finish') {
        await expect.poll(() => gates.length).toBe(before + 1);
        fault = inject();
        gates[before]!();
      }
      // Tried again (with a wait between tries), not once and dropped.
      await expect.poll(() => fault!.mock.calls.length, { timeout: 10_000 }).toBeGreaterThan(2);
      expect((await server.request('/api/health')).status).toBe(200);

      fault!.mockRestore();
      if (step !== 'finish') {
        await expect.poll(() => gates.length, { timeout: 10_000 }).toBe(before + 1);
        gates[before]!();
      }
      await expect.poll(() => stateOf(id), { timeout: 10_000 }).toBe('done');
      const row = await jobsRepo.find(server.app.db, id);
      expect(JSON.parse(row!.result!)).toEqual({ echoed: step });
    },
  );

  it("tries a job's work again when the database failed it, rather than failing the job", async () => {
    // What the work's own query meets while the database restarts (or is busy, on SQLite).
    const fault =
      dialect === 'postgres'
        ? Object.assign(new Error('terminating connection due to administrator command'), {
            code: '57P01',
          })
        : Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    let tries = 0;
    server.app.jobs.register(CUT, async () => {
      tries += 1;
      if (tries === 1) throw fault;
      return { tries };
    });
    const id = await server.app.jobs.create({ kind: CUT, userId: null, about: {}, input: {} });
    await expect.poll(() => stateOf(id), { timeout: 10_000 }).toBe('done');
    expect(JSON.parse((await jobsRepo.find(server.app.db, id))!.result!)).toEqual({ tries: 2 });
  });
});
