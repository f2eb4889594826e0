import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { ERROR_MESSAGES } from '@inkwell/contract';
import { startPrivatePostgres, type PrivatePostgres } from '../../test/private-services';
import { registerUser, startTestServer, type TestServer } from '../../test/test-app';

/**
 * A database that cannot serve for a moment is not the request's fault, nor a bug: while a
 * private PostgreSQL (never the shared one) is down, requests are answered 503 with Retry-After
 * in the error format, not 500, and served again once it is back.
 */
describe.skipIf(!existsSync('/usr/lib/postgresql'))('requests while the database is down', () => {
  let pg: PrivatePostgres | undefined;
  let server: TestServer | undefined;
  afterAll(async () => {
    await server?.close();
    await pg?.close();
  });

  it('are answered 503 with Retry-After, then served again', async () => {
    pg = await startPrivatePostgres();
    server = await startTestServer({ env: { DATABASE_URL: pg.url } });
    const user = await registerUser(server);
    const files = () => server!.request('/api/my_files', { token: user.token });
    expect((await files()).status).toBe(200);

    await pg.stop('fast');
    const down = await files();
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('5');
    expect(await down.json()).toEqual({ error: ERROR_MESSAGES.databaseUnavailable });

    await pg.start();
    await expect.poll(async () => (await files()).status).toBe(200);
  }, 120_000);
});
