import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobKind } from '@inkwell/contract';
import { startTestServer, testDialects, type TestServer } from '../../../test/test-app';

/**
 * Issue 36: a job's signal belongs to its work as a whole. Once the handler has ended, failed
 * at its first failing part or done, a part of it still going (a model call it did not wait for)
 * is told to stop, so nothing of a job runs after it has ended.
 */
const FAILING = 'work-signal-fails' as JobKind;
const ENDING = 'work-signal-ends' as JobKind;

describe.each(testDialects())("a job's work stops when the job ends (%s)", (dialect) => {
  let server: TestServer;
  /** The signal of a part of the job still going when its handler ends. */
  const stray: AbortSignal[] = [];

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    server.app.jobs.register(FAILING, async ({ signal }) => {
      stray.push(signal);
      throw new Error('a part failed');
    });
    server.app.jobs.register(ENDING, async ({ signal }) => {
      stray.push(signal);
      return { ok: true };
    });
  });
  afterAll(() => server?.close());

  it.each([
    [FAILING, 'failed'],
    [ENDING, 'done'],
  ])('%s: the part still going is stopped once the job is %s', async (kind, state) => {
    stray.length = 0;
    const id = await server.app.jobs.create({ kind, userId: null, about: {}, input: {} });
    expect((await server.app.jobs.watch(id, () => {})).state).toBe(state);
    expect(stray).toHaveLength(1);
    expect(stray[0]!.aborted).toBe(true);
  });
});
