import Fastify from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_MESSAGES } from '@inkwell/contract';
import errorsPlugin from './errors';

/**
 * A value the database refuses (PostgreSQL's SQLSTATE class 22: a number out of range, a NUL, text
 * that is not a number) is the request's fault: 400 in the error format, logged as a warning, not
 * a 500. The contract refuses the values it knows of first; this is the backstop for the rest.
 */
describe('a data exception from the database', () => {
  const logged: { level: number; msg: string }[] = [];
  const app = Fastify({
    logger: { level: 'info', stream: { write: (line: string) => logged.push(JSON.parse(line)) } },
  });
  const client = process.env.TEST_DATABASE_URL
    ? new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
    : undefined;

  /** An error as node-postgres throws it, with this SQLSTATE. */
  const pgError = (code: string) =>
    Object.assign(new pg.DatabaseError('refused', 0, 'error'), { code });

  beforeAll(async () => {
    await app.register(errorsPlugin);
    app.get<{ Params: { code: string } }>('/thrown/:code', async (request) => {
      throw pgError(request.params.code);
    });
    // The real thing: PostgreSQL's own errors for the values that once got through.
    const queries: Record<string, [string, unknown[]]> = {
      'out-of-range': ['select $1::int as n', [2147483648]],
      nul: ['select $1::text as t', ['a\u0000b']],
      'not-a-number': ['select $1::int as n', ['twelve']],
    };
    app.get<{ Params: { name: string } }>('/postgres/:name', async (request) => {
      const [text, values] = queries[request.params.name]!;
      return (await client!.query(text, values)).rows;
    });
    await client?.connect();
  });
  afterAll(async () => {
    await client?.end();
    await app.close();
  });

  const answer = async (url: string) => {
    logged.length = 0;
    const res = await app.inject({ url });
    return {
      status: res.statusCode,
      body: res.json() as unknown,
      levels: logged.map((l) => l.level),
    };
  };
  const WARN = 40;
  const ERROR = 50;

  it('answers 400 in the error format and logs a warning, for every code of class 22', async () => {
    for (const code of ['22P05', '22003', '22021', '22P02', '22007']) {
      const { status, body, levels } = await answer(`/thrown/${code}`);
      expect({ code, status, body }).toEqual({
        code,
        status: 400,
        body: { error: ERROR_MESSAGES.invalidValue },
      });
      expect(levels, code).toContain(WARN);
      expect(levels, code).not.toContain(ERROR);
    }
  });

  it('leaves other database failures a 500 with no internals', async () => {
    for (const code of ['42601', '23502', 'SQLITE_MISMATCH', '2200']) {
      const { status, body, levels } = await answer(`/thrown/${code}`);
      expect({ code, status, body }).toEqual({
        code,
        status: 500,
        body: { error: ERROR_MESSAGES.internal },
      });
      expect(levels, code).toContain(ERROR);
    }
  });

  it.skipIf(!client)("answers PostgreSQL's own refusals 400", async () => {
    for (const name of ['out-of-range', 'nul', 'not-a-number']) {
      const { status, body } = await answer(`/postgres/${name}`);
      expect({ name, status, body }).toEqual({
        name,
        status: 400,
        body: { error: ERROR_MESSAGES.invalidValue },
      });
    }
  });
});
