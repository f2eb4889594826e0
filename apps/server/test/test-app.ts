import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp, type App } from '../src/app';
import { loadConfig } from '../src/config';

/**
 * A real server for a test: its own DATA_DIR, its own database (SQLite, or a fresh PostgreSQL
 * schema), listening on a random loopback port. Requests go over real HTTP with `fetch`.
 */
export type TestDialect = 'sqlite' | 'postgres';

/** Dialects to run database-backed tests on: SQLite always, PostgreSQL where TEST_DATABASE_URL is set. */
export function testDialects(): TestDialect[] {
  return process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

export interface TestServer {
  app: App;
  dialect: TestDialect;
  /** PostgreSQL schema of this server's database (undefined on SQLite). */
  pgSchema: string | undefined;
  url: string;
  dataDir: string;
  /**
   * On PostgreSQL, a connection string that reaches this server's own schema (for tools that open
   * the database themselves, like `npm run alert`); undefined on SQLite (the file is in dataDir).
   */
  databaseUrl: string | undefined;
  /** fetch against the server; `path` starts with /api/... */
  request(path: string, init?: RequestInit & { token?: string; json?: unknown }): Promise<Response>;
  /** Stops the app and keeps its data (for another server sharing it); close() may follow. */
  stop(): Promise<void>;
  close(): Promise<void>;
}

/** Argon2 at a test's cost: 1 MiB, 1 pass (a millisecond instead of a second under load). */
export const TEST_PASSWORD_HASH_COST = {
  PASSWORD_HASH_MEMORY_KIB: '1024',
  PASSWORD_HASH_PASSES: '1',
};

export async function startTestServer(
  opts: {
    dialect?: TestDialect;
    env?: Record<string, string | undefined>;
    /**
     * Another app server of the same deployment: the same database (SQLite file or PostgreSQL
     * schema), DATA_DIR and JWT_SECRET. Closing this one leaves the shared data to `sharing`.
     */
    sharing?: TestServer;
    /** A built web app to serve (none by default). */
    webDistDir?: string;
  } = {},
): Promise<TestServer> {
  const { sharing } = opts;
  const dataDir = sharing?.dataDir ?? mkdtempSync(path.join(tmpdir(), 'inkwell-test-'));
  const dialect = sharing?.dialect ?? opts.dialect ?? 'sqlite';
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    JWT_SECRET: sharing?.app.config.JWT_SECRET ?? randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
    MODEL_DOWNLOAD: 'off',
    // jsdom unless a test asks for the browser: Chromium launches cost seconds on a shared machine.
    ANALYSIS_BROWSER: 'off',
    // Harper starts on a test's first proofread, not in every server a test starts.
    PROOFREAD_WARM_UP: 'off',
    // Password hashes at test cost (passwords.test.ts checks the production cost once).
    ...TEST_PASSWORD_HASH_COST,
    ...(dialect === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : {}),
    ...opts.env,
  });
  const pgSchema = sharing
    ? sharing.pgSchema
    : dialect === 'postgres'
      ? `t_${randomBytes(6).toString('hex')}`
      : undefined;
  const app = await buildApp(config, {
    logger: false,
    pgSchema,
    webDistDir: opts.webDistDir ?? path.join(dataDir, 'no-web'),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const url = `http://127.0.0.1:${port}`;
  let databaseUrl: string | undefined;
  if (pgSchema && config.DATABASE_URL) {
    const u = new URL(config.DATABASE_URL);
    u.searchParams.set('options', `-c search_path=${pgSchema}`);
    databaseUrl = u.toString();
  }
  let stopped: Promise<void> | undefined;
  const stop = () => (stopped ??= app.close());
  return {
    app,
    dialect,
    pgSchema,
    url,
    dataDir,
    databaseUrl,
    stop,
    request(p, init = {}) {
      const { token, json, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (token) headers.set('authorization', `Bearer ${token}`);
      let body = rest.body;
      if (json !== undefined) {
        headers.set('content-type', 'application/json');
        body = JSON.stringify(json);
      }
      return fetch(url + p, { ...rest, headers, body });
    },
    async close() {
      if (sharing) return stop();
      // pg-boss's schema (plugins/jobs.ts) goes with the app's own.
      for (const schema of pgSchema ? [pgSchema, `${pgSchema}_queue`] : [])
        await app.db.schema
          .dropSchema(schema)
          .ifExists()
          .cascade()
          .execute()
          .catch(() => {});
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let counter = 0;
/** Registers a fresh user and returns its tokens and credentials. */
export async function registerUser(server: TestServer, overrides: Record<string, string> = {}) {
  counter += 1;
  const body = {
    email: `user${counter}-${randomBytes(4).toString('hex')}@example.com`,
    password: 'correct horse battery',
    first_name: 'Ada',
    last_name: 'Lovelace',
    ...overrides,
  };
  const res = await server.request('/api/register', { method: 'POST', json: body });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  const tokens = (await res.json()) as { access_token: string; refresh_token: string };
  return { ...body, ...tokens, token: tokens.access_token };
}
