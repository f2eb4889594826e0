import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDialects, type TestServer } from '../../../../test/test-app';
import { registerWithId, uploadOk } from '../../files/testing';
import { FileClaims } from './file-claims';
import { searchClaimsRepo } from './search-claims.repo';

/**
 * A file's claim (migration 044) is one upsert that a live claim of another holder refuses: the
 * same SQL on both databases, each step at a given time, so nothing here waits on a clock.
 */
describe.each(testDialects())('search claims (%s)', (dialect) => {
  let server: TestServer;
  let fileId: number;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    await server.app.knowledge.stop();
    const user = await registerWithId(server);
    fileId = (await uploadOk(server, user.token, 'claimed.txt', 'A claimed file.')).id;
  });
  afterAll(async () => {
    await server?.close();
  });

  const at = (ms: number) => new Date(Date.UTC(2030, 0, 1) + ms);
  const claim = (holder: string, ms: number, kind: 'terms' | 'vectors' = 'terms') =>
    searchClaimsRepo.claim(server.app.db, dialect, {
      fileId,
      kind,
      holder,
      now: at(ms),
      leaseMs: 1000,
    });

  it('is held by one holder until it expires, renewed by its holder, released by it alone', async () => {
    expect(await claim('a', 0)).toBe(true);
    expect(await claim('b', 500)).toBe(false);
    // Another kind of work on the file is another claim.
    expect(await claim('b', 500, 'vectors')).toBe(true);
    // Renewed at 900: live until 1900.
    expect(await claim('a', 900)).toBe(true);
    expect(await claim('b', 1800)).toBe(false);
    // Expired (its server died): taken over; the old holder's release leaves it to the new one.
    expect(await claim('b', 2000)).toBe(true);
    await searchClaimsRepo.release(server.app.db, dialect, fileId, 'terms', 'a');
    expect(await claim('c', 2100)).toBe(false);
    await searchClaimsRepo.release(server.app.db, dialect, fileId, 'terms', 'b');
    expect(await claim('c', 2100)).toBe(true);
  });

  it('is refused for a deleted file', async () => {
    expect(
      await searchClaimsRepo.claim(server.app.db, dialect, {
        fileId: 999_999,
        kind: 'terms',
        holder: 'a',
        now: new Date(),
        leaseMs: 1000,
      }),
    ).toBe(false);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('a held claim (postgres)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect: 'postgres' });
    await server.app.knowledge.stop();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('is renewed while its work runs, keeps others out, and is gone after', async () => {
    const user = await registerWithId(server);
    const fileId = (await uploadOk(server, user.token, 'long.txt', 'A long index.')).id;
    const claims = new FileClaims(server.app.db, 'postgres', 'terms', 2000);
    const other = new FileClaims(server.app.db, 'postgres', 'terms');
    const row = () =>
      server.app.db
        .selectFrom('search_claims')
        .select(['holder', 'expires_at'])
        .where('file_id', '=', fileId)
        .executeTakeFirst();
    let ran = false;
    const held = await claims.whileHeld(fileId, async () => {
      const first = (await row())!;
      expect(first.holder).toBe(claims.holder);
      expect(await other.whileHeld(fileId, async () => void (ran = true))).toBe(false);
      // Renewed (every quarter of the lease) while the work runs.
      await expect
        .poll(async () => (await row())?.expires_at, { timeout: 10_000 })
        .not.toBe(first.expires_at);
    });
    expect(held).toBe(true);
    expect(ran).toBe(false);
    expect(await row()).toBeUndefined();
    expect(await other.whileHeld(fileId, async () => void (ran = true))).toBe(true);
    expect(ran).toBe(true);
  });
});
