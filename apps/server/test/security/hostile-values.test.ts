import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knowledgeRepo } from '../../src/features/documents';
import { solveCaptcha } from '../captcha';
import { testDialects } from '../test-app';
import { startHostileTarget, type HostileTarget } from './hostile-run';

/**
 * The values that got past validation and failed in the database with a 500 on PostgreSQL only:
 * ids past its 32-bit serial columns, NUL in stored text, an empty `file_ids` list (`in ()`), and
 * a lone surrogate in a download's name. hostile-input.test.ts throws everything at every route
 * on SQLite alone (its time); these few run on every dialect, PostgreSQL with TEST_DATABASE_URL.
 */
const TOO_BIG = '2147483648'; // 2^31: one past PostgreSQL's serial (int4)
const NUL = 'a\u0000b';
const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

interface Case {
  what: string;
  method: string;
  path: string;
  json?: unknown;
  form?: Record<string, string>;
  /** The status expected; the error (if any) always `{ "error": "<text>" }`. */
  status: number;
  /** Expected start of the error text. */
  error?: string;
}

const idCases: Case[] = [
  ...['preview_file', 'download_file'].map((route) => ({
    what: `GET ${route}`,
    method: 'GET',
    path: `/api/${route}/${TOO_BIG}`,
    status: 400,
    error: 'id: ',
  })),
  { what: 'rename', method: 'PATCH', path: `/api/rename_file/${TOO_BIG}`, json: { new_name: 'x' } },
  { what: 'delete', method: 'DELETE', path: `/api/delete_file/${TOO_BIG}` },
  { what: 'reply events', method: 'GET', path: `/api/chat/replies/${TOO_BIG}/events` },
  { what: 'reply stop', method: 'POST', path: `/api/chat/replies/${TOO_BIG}/stop` },
  { what: 'disable user', method: 'POST', path: `/api/admin/users/${TOO_BIG}/disable` },
  { what: 'delete user', method: 'DELETE', path: `/api/admin/users/${TOO_BIG}` },
].map((c) => ({ status: 400, error: 'id: ', ...c }));

const fileIdCases: Case[] = [
  ...['summarize', 'proofread', 'bulk-sentiment-analysis', 'askQuestions'].map((route) => ({
    what: `${route} file_id`,
    method: 'POST',
    path: `/api/${route}`,
    form: { file_id: TOO_BIG, text: 'What is it about?' },
    status: 400,
    error: 'file_id ',
  })),
  {
    what: 'translate_stored_file file_id',
    method: 'POST',
    path: '/api/translate_stored_file',
    form: { file_id: TOO_BIG, target_language: 'French' },
    status: 400,
    error: 'file_id ',
  },
  {
    what: 'ask_files file_ids',
    method: 'POST',
    path: '/api/ask_files',
    json: { text: 'q', file_ids: [Number(TOO_BIG)] },
    status: 400,
    error: 'file_ids ',
  },
];

const nulCases: Case[] = [
  { what: 'PUT user first_name', method: 'PUT', path: '/api/user', json: { first_name: NUL } },
  { what: 'PUT user last_name', method: 'PUT', path: '/api/user', json: { last_name: NUL } },
  { what: 'chat text', method: 'POST', path: '/api/chat', json: { text: NUL } },
  { what: 'alert message', method: 'PUT', path: '/api/admin/alert', json: { message: NUL } },
  {
    what: 'alert title',
    method: 'PUT',
    path: '/api/admin/alert',
    json: { message: 'Maintenance', title: NUL },
  },
  ...[
    ['NUL', [NUL, NUL]],
    ['not a time', ['yesterday', '00000000-0000-4000-8000-000000000000']],
    ['not a job id', ['2026-01-01T00:00:00.000Z', 'x']],
    ['numbers', [1, 2]],
  ].map(([what, value]) => ({
    what: `jobs cursor: ${String(what)}`,
    method: 'GET',
    path: `/api/jobs?cursor=${cursorOf(value)}`,
    error: 'cursor: ',
  })),
].map((c) => ({ status: 400, ...c }));

describe.each(testDialects())('values the database refuses, on %s', (dialect) => {
  let target: HostileTarget;

  beforeAll(async () => {
    target = await startHostileTarget(dialect);
  });
  afterAll(() => target?.close());

  /** What is wrong with the answer to `c`, or undefined. */
  async function send(c: Case): Promise<string | undefined> {
    let body: BodyInit | undefined;
    if (c.form) {
      body = new FormData();
      for (const [k, v] of Object.entries(c.form)) body.append(k, v);
    }
    const res = await target.server.request(c.path, {
      method: c.method,
      token: target.user.token,
      ...(c.json === undefined ? { body } : { json: c.json }),
    });
    const text = await res.text();
    const error = (JSON.parse(text) as { error?: unknown }).error;
    if (res.status !== c.status || typeof error !== 'string' || !error.startsWith(c.error ?? ''))
      return `${c.what}: ${res.status} ${text.slice(0, 200)}`;
  }
  const problems = async (cases: Case[]) =>
    (await Promise.all(cases.map(send))).filter((p) => p !== undefined);

  it('an id past the 32-bit range: 400 naming the id, as any other impossible id', async () => {
    expect(await problems([...idCases, ...fileIdCases])).toEqual([]);
    // The largest id that can exist is an id like any other: not found.
    const last = await problems([
      {
        what: 'largest id',
        method: 'GET',
        path: '/api/preview_file/2147483647',
        status: 404,
        error: 'File not found',
      },
    ]);
    expect(last).toEqual([]);
  });

  it('NUL in text that is stored, and a job list cursor this server did not write: 400', async () => {
    const profile = () => target.server.request('/api/user', { token: target.user.token });
    const before = await (await profile()).json();
    const register = {
      what: 'register first_name',
      method: 'POST',
      path: '/api/register',
      json: { email: 'nul@example.com', password: 'correct horse battery', first_name: NUL },
      status: 400,
      error: 'first_name: ',
    };
    const contact = (field: 'name' | 'message') => ({
      what: `contact ${field}`,
      method: 'POST',
      path: '/api/contact',
      status: 400,
      error: `${field}: `,
      json: { name: 'Ada', email: 'a@example.com', message: 'Hello', [field]: NUL },
    });
    const solved = async (c: Case) => ({
      ...c,
      json: { ...(c.json as object), recaptchaToken: await solveCaptcha(target.server) },
    });
    const cases = [
      ...nulCases,
      register,
      await solved(contact('name')),
      await solved(contact('message')),
    ];
    expect(await problems(cases)).toEqual([]);
    // Nothing was changed on the way.
    expect(await (await profile()).json()).toEqual(before);
    expect((await (await target.server.request('/api/alerts/latest')).json()).isVisible).toBe(
      false,
    );
  });

  it('an empty file_ids list asks every file, as no list does', async () => {
    const files = () => target.server.request('/api/my_files', { token: target.user.token });
    await expect
      .poll(async () =>
        (await (await files()).json()).files.map((f: { search: string }) => f.search),
      )
      .toEqual(['searchable']);
    const ask = (json: unknown) =>
      target.server.request('/api/ask_files', { method: 'POST', token: target.user.token, json });
    const none = await ask({ text: 'What is kept?' });
    const empty = await ask({ text: 'What is kept?', file_ids: [] });
    expect(none.status).toBe(200);
    expect(empty.status).toBe(200);
    // Below the contract, an empty list asks for no file rather than failing the query.
    const userId = target.server.app.accessTokens.verify(target.user.token)!.userId;
    const { db } = target.server.app;
    expect(await knowledgeRepo.states(db, userId, [])).toEqual([]);
    const query = { userId, terms: ['kept'], fileIds: [], limit: 5 };
    expect(await knowledgeRepo.search(db, target.server.dialect, query)).toEqual([]);
  });

  it('a lone surrogate in a download name: the file, named with U+FFFD', async () => {
    const res = await target.server.request('/api/download-response', {
      method: 'POST',
      token: target.user.token,
      json: { text: 'x', format: 'txt', file_name: '\ud800' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain("filename*=UTF-8''%EF%BF%BD.txt");
    expect(await res.text()).toBe('x');
  });
});
