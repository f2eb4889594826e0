import argon2 from 'argon2';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { HttpError } from '../../lib/http-error';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-app';
import { authRepo } from './auth.repo';
import { loadConfig } from '../../config';
import {
  HASH_CONCURRENCY,
  HASH_WAITING,
  PASSWORD_CHECKS_BUSY,
  PRODUCTION_HASH_COST,
  configurePasswordHashing,
  hashPassword,
  verifyPassword,
} from './passwords';

/**
 * Counts the argon2 calls running at once; while `closed`, each waits (its slot held) for the
 * gate to open, so the waiting line fills as a burst does on a busy server.
 */
function watchArgon2() {
  const real = { hash: argon2.hash, verify: argon2.verify };
  let running = 0;
  let most = 0;
  let started = 0;
  let open!: () => void;
  let gate: Promise<void> | undefined = new Promise((r) => (open = r));
  const counted =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      running += 1;
      started += 1;
      most = Math.max(most, running);
      try {
        await gate;
        return await fn(...args);
      } finally {
        running -= 1;
      }
    };
  vi.spyOn(argon2, 'hash').mockImplementation(counted(real.hash) as typeof argon2.hash);
  vi.spyOn(argon2, 'verify').mockImplementation(counted(real.verify));
  return {
    get most() {
      return most;
    },
    get started() {
      return started;
    },
    open() {
      gate = undefined;
      open();
    },
  };
}

const settle = () => new Promise((r) => setImmediate(r));

/**
 * A real argon2id hash at the lowest cost, so that the dozens of checks of these tests take
 * milliseconds on a busy machine (a check costs what its hash says: the product's take ~50 ms).
 */
const cheapHash = (password: string) =>
  argon2.hash(password, { type: argon2.argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 });

describe('password hashing in turn', () => {
  afterEach(() => vi.restoreAllMocks());

  it('runs at most HASH_CONCURRENCY argon2 calls at once and refuses past the waiting line', async () => {
    const hash = await cheapHash('a long password');
    // The dummy hash (for unknown emails) made before, so that one unknown email costs one check.
    expect(await verifyPassword(undefined, 'anything')).toBe(false);
    const watched = watchArgon2();
    const asked = HASH_CONCURRENCY + HASH_WAITING + 5;
    // One unknown email among them: it waits its turn like the others, and is answered false.
    const checks = Array.from({ length: asked }, (_, i) =>
      verifyPassword(i === 1 ? undefined : hash, i % 2 === 0 ? 'a long password' : 'wrong'),
    );
    const outcomes = checks.map((c) =>
      c.then(
        (ok) => ({ ok }),
        (err: unknown) => ({ err }),
      ),
    );
    await settle();
    // While the first ones hold their turns, no more start, and those past the line are refused.
    expect(watched.started).toBe(HASH_CONCURRENCY);
    const refused = (await Promise.all(outcomes.slice(-5))).map((o) => ('err' in o ? o.err : o));
    for (const err of refused) {
      expect(err).toBeInstanceOf(HttpError);
      expect(err).toMatchObject({
        statusCode: 503,
        message: PASSWORD_CHECKS_BUSY,
        headers: { 'retry-after': '1' },
      });
    }
    watched.open();
    const judged = await Promise.all(outcomes.slice(0, -5));
    expect(judged).toEqual(Array.from({ length: asked - 5 }, (_, i) => ({ ok: i % 2 === 0 })));
    expect(watched.most).toBe(HASH_CONCURRENCY);
  });
});

describe('password hashes in turn', () => {
  afterEach(() => vi.restoreAllMocks());

  it('a new hash waits for the check before it, and is a real argon2id hash', async () => {
    const hash = await cheapHash('first');
    const watched = watchArgon2();
    const check = verifyPassword(hash, 'first');
    const made = hashPassword('a new password');
    await settle();
    expect(watched.started).toBe(1);
    watched.open();
    expect(await check).toBe(true);
    const newHash = await made;
    expect(newHash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(newHash, 'a new password')).toBe(true);
    expect(watched.most).toBe(1);
  });
});

describe('sign-in when password checks are busy', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { AUTH_RATE_LIMIT: '1000', TRUST_PROXY: 'true' } });
  });
  afterAll(() => server.close());

  it('answers 503 in the error format with Retry-After past the waiting line', async () => {
    const email = 'busy@example.com';
    const password_hash = await cheapHash('the right one');
    await authRepo.insertUser(server.app.db, {
      email,
      password_hash,
      first_name: '',
      last_name: '',
    });
    const argon = watchArgon2();
    const login = (i: number) =>
      server.request('/api/login', {
        method: 'POST',
        json: { email, password: 'a wrong one' },
        headers: { 'x-forwarded-for': `198.51.100.${i}` },
      });
    const asked = HASH_CONCURRENCY + HASH_WAITING + 2;
    const answers = Array.from({ length: asked }, (_, i) => login(i));
    // The two past the line are answered while the others still wait for their turn.
    const first = await Promise.race(answers);
    expect(first.status).toBe(503);
    expect(first.headers.get('retry-after')).toBe('1');
    expect(await first.json()).toEqual({ error: PASSWORD_CHECKS_BUSY });
    argon.open();
    const statuses = await Promise.all(answers.map(async (a) => (await a).status));
    expect(statuses.filter((s) => s === 401)).toHaveLength(HASH_CONCURRENCY + HASH_WAITING);
    expect(statuses.filter((s) => s === 503)).toHaveLength(2);
    expect(argon.most).toBe(HASH_CONCURRENCY);
  });
});

describe('the cost of password hashes', () => {
  afterEach(() => configurePasswordHashing(PRODUCTION_HASH_COST));

  it('is argon2id at 64 MiB and 3 passes unless configured (the only hash of the suite at that cost)', async () => {
    const config = loadConfig({ DATA_DIR: '/tmp/inkwell-cfg-test' });
    expect(config.PASSWORD_HASH_MEMORY_KIB).toBe(PRODUCTION_HASH_COST.memoryKib);
    expect(config.PASSWORD_HASH_PASSES).toBe(PRODUCTION_HASH_COST.passes);
    configurePasswordHashing({
      memoryKib: config.PASSWORD_HASH_MEMORY_KIB,
      passes: config.PASSWORD_HASH_PASSES,
    });
    const hash = await hashPassword('production cost');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=65536,t=3,/);
    expect(await verifyPassword(hash, 'production cost')).toBe(true);
    expect(await verifyPassword(hash, 'another')).toBe(false);
  });

  it('refuses a cost below 1 MiB or 1 pass', () => {
    expect(() =>
      loadConfig({ DATA_DIR: '/tmp/inkwell-cfg-test', PASSWORD_HASH_MEMORY_KIB: '64' }),
    ).toThrow(/PASSWORD_HASH_MEMORY_KIB/);
    expect(() =>
      loadConfig({ DATA_DIR: '/tmp/inkwell-cfg-test', PASSWORD_HASH_PASSES: '0' }),
    ).toThrow(/PASSWORD_HASH_PASSES/);
  });

  it('is what the server is configured with: a test server hashes at the test cost', async () => {
    const server = await startTestServer();
    try {
      const user = await registerUser(server);
      const row = await server.app.db
        .selectFrom('users')
        .select('password_hash')
        .where('email', '=', user.email)
        .executeTakeFirstOrThrow();
      expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,/);
    } finally {
      await server.close();
    }
  });
});
