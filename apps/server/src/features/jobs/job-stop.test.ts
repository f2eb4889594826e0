import { setImmediate as nextMacrotask } from 'node:timers/promises';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { JobKind } from '@inkwell/contract';
import { startTestServer, testDialects, type TestServer } from '../../../test/test-app';
import { jobTurnsRepo } from './job-turns.repo';
import { jobsRepo } from './jobs.repo';

/**
 * Issue 36: the runner's stop missed a claim under way. A claim that landed after stop had looked
 * at the running jobs ran its job anyway, in a process that was closing, and was never handed
 * back. Here the claim is held until the process has begun to stop: the job must go back to the
 * queue, not run.
 */
const KIND = 'stop-test' as JobKind;

describe.each(testDialects())('stopping with a claim in flight (%s)', (dialect) => {
  let server: TestServer;
  afterEach(() => vi.restoreAllMocks());
  afterAll(() => server?.close());

  it('hands the claimed job back instead of running it', async () => {
    server = await startTestServer({ dialect });
    const ran: string[] = [];
    server.app.jobs.register(KIND, async ({ jobId }) => {
      ran.push(jobId);
      return null;
    });
    const realClaim = jobTurnsRepo.claimNext.bind(jobTurnsRepo);
    let arrived!: () => void;
    const claimStarted = new Promise<void>((resolve) => (arrived = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let claimDone: Promise<unknown> | undefined;
    vi.spyOn(jobTurnsRepo, 'claimNext').mockImplementation((...args) => {
      arrived();
      claimDone ??= gate.then(() => realClaim(...args));
      return claimDone as ReturnType<typeof realClaim>;
    });

    const id = await server.app.jobs.create({ kind: KIND, userId: null, about: {}, input: {} });
    await claimStarted;
    const stopped = server.app.jobs.close();
    // Every step of close() up to the runner's stop has run (they wait on nothing else).
    await nextMacrotask();
    release();
    await stopped;
    await claimDone;

    const row = await jobsRepo.find(server.app.db, id);
    expect(ran).toEqual([]);
    // Claimed once, then handed back: queued for the next process (or the next start).
    expect(row).toMatchObject({ state: 'queued', attempts: 1, worker: null });
  });

  it('saves a part that finished as the process stopped before handing the job back', async () => {
    server = await startTestServer({ dialect });
    const order: string[] = [];
    let saveStarted!: () => void;
    const saving = new Promise<void>((resolve) => (saveStarted = resolve));
    let finishSave!: () => void;
    const saveGate = new Promise<void>((resolve) => (finishSave = resolve));
    const realPut = jobsRepo.putPart.bind(jobsRepo);
    vi.spyOn(jobsRepo, 'putPart').mockImplementation(async (...args) => {
      saveStarted();
      await saveGate;
      await realPut(...args);
      order.push('part saved');
    });
    const realRelease = jobsRepo.release.bind(jobsRepo);
    vi.spyOn(jobsRepo, 'release').mockImplementation(async (...args) => {
      order.push('handed back');
      return realRelease(...args);
    });
    server.app.jobs.register(KIND, async ({ parts, signal }) => {
      // One part finished and is being saved; its sibling is cut by the stop.
      const finished = parts.put('first part', 'its output');
      const cut = new Promise((_, reject) =>
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }),
      );
      await Promise.all([finished, cut]);
      return null;
    });

    const id = await server.app.jobs.create({ kind: KIND, userId: null, about: {}, input: {} });
    await saving;
    const stopped = server.app.jobs.close();
    await nextMacrotask();
    finishSave();
    await stopped;

    expect(order).toEqual(['part saved', 'handed back']);
    expect(await jobsRepo.getPart(server.app.db, id, 'first part')).toBe('its output');
    expect(await jobsRepo.find(server.app.db, id)).toMatchObject({ state: 'queued' });
  });
});
