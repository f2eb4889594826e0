import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects, startTestServer, type TestServer } from '../../../test/test-app';
import { registerWithId } from '../files/testing';

/**
 * Issue 36: GET /api/jobs answered 50 jobs with their whole results (tens of MB for a translated
 * 10 MB file) and silently left out the 51st. The list is now light (no results: GET
 * /api/jobs/:id has one) and comes a page at a time, each page saying where the next starts.
 */
interface Page {
  jobs: Record<string, unknown>[];
  next_cursor: string | null;
}

describe.each(testDialects())('the list of jobs (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(() => server?.close());

  /** Ended jobs of `userId`, written as the runner ends them: `n` of them, some at one instant. */
  async function endedJobs(userId: number, n: number, resultBytes: number) {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      // Three jobs per instant: the order between them is by id, and no page may split it wrong.
      const at = new Date(Date.UTC(2026, 0, 1, 0, 0, Math.floor(i / 3))).toISOString();
      await server.app.db
        .insertInto('jobs')
        .values({
          id,
          user_id: userId,
          owner: String(userId),
          kind: 'translate',
          input: JSON.stringify({ about: { file_name: `f${i}.txt`, target_language: 'French' } }),
          state: 'done',
          result: JSON.stringify({ translation: `${i} `.padEnd(resultBytes, 'x') }),
          attempts: 1,
          created_at: at,
          queued_at: at,
          finished_at: at,
          expires_at: '2999-01-01T00:00:00.000Z',
        })
        .execute();
      ids.push(id);
    }
    return ids;
  }

  const page = async (token: string, query = '') => {
    const res = await server.request(`/api/jobs${query}`, { token });
    const text = await res.text();
    return { status: res.status, bytes: text.length, body: JSON.parse(text) as Page };
  };

  it('answers every job a page at a time, newest first, without results', async () => {
    const user = await registerWithId(server);
    const other = await registerWithId(server);
    // 61 jobs of 200 KB results each: 12 MB, had the list carried them.
    const ids = await endedJobs(user.id, 61, 200_000);
    const newestFirst = [...ids].reverse();

    const first = await page(user.token);
    expect(first.status).toBe(200);
    expect(first.body.jobs).toHaveLength(50);
    expect(first.bytes).toBeLessThan(50 * 1000);
    for (const job of first.body.jobs) expect(job).not.toHaveProperty('result');
    expect(first.body.jobs[0]).toMatchObject({
      id: newestFirst[0],
      kind: 'translate',
      state: 'done',
      about: { file_name: 'f60.txt', target_language: 'French' },
      error: null,
    });
    expect(first.body.next_cursor).toEqual(expect.any(String));

    // The rest, in smaller pages: every job once, in order, and the last page says it is.
    const seen = first.body.jobs.map((j) => j.id);
    let cursor = first.body.next_cursor;
    while (cursor) {
      const next = await page(user.token, `?limit=4&cursor=${encodeURIComponent(cursor)}`);
      expect(next.status).toBe(200);
      expect(next.body.jobs.length).toBeLessThanOrEqual(4);
      seen.push(...next.body.jobs.map((j) => j.id));
      cursor = next.body.next_cursor;
    }
    expect(seen).toEqual(newestFirst);

    // The result, one job at a time.
    const one = await server.request(`/api/jobs/${ids[7]}`, { token: user.token });
    expect(((await one.json()) as { result: { translation: string } }).result.translation).toMatch(
      /^7 x+$/,
    );
    // Another user's list holds none of them.
    expect((await page(other.token)).body).toEqual({ jobs: [], next_cursor: null });
  });

  it('refuses a cursor or a limit it did not give, in the error format', async () => {
    const user = await registerWithId(server);
    for (const query of ['?cursor=not-a-cursor', '?cursor=', '?limit=0', '?limit=1000']) {
      const res = await page(user.token, query);
      expect(res.status, query).toBe(400);
      expect(res.body, query).toEqual({ error: expect.any(String) });
    }
    expect((await server.request('/api/jobs')).status).toBe(401);
  });
});
