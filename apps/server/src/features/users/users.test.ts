import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userPrefix } from '../../storage/storage';
import { uploadOk } from '../files/testing';
import {
  registerUser,
  startTestServer,
  testDialects,
  type TestServer,
} from '../../../test/test-app';

describe.each(testDialects())('users over HTTP (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    // No one here is an operator (the first account would be, without ADMIN_EMAILS).
    server = await startTestServer({ dialect, env: { ADMIN_EMAILS: 'ops@example.com' } });
  });
  afterAll(() => server.close());

  const put = (json: unknown, token: string) =>
    server.request('/api/user', { method: 'PUT', json, token });

  it('shows the profile with its creation date', async () => {
    const user = await registerUser(server);
    const res = await server.request('/api/user', { token: user.token });
    const body = await res.json();
    expect(body).toEqual({
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: user.email,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      role: 'user',
      english_dialect: 'auto',
    });
    // The English proofreading checks against: kept; an unknown one refused, changing nothing.
    const ok = await put({ english_dialect: 'british' }, user.token);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ english_dialect: 'british' });
    const me = await server.request('/api/user', { token: user.token });
    expect(await me.json()).toMatchObject({ english_dialect: 'british' });
    const bad = await put({ english_dialect: 'martian' }, user.token);
    expect(bad.status).toBe(400);
    const still = await server.request('/api/user', { token: user.token });
    expect(await still.json()).toMatchObject({ english_dialect: 'british' });
  });

  it('updates exactly one field at a time', async () => {
    const user = await registerUser(server);
    const ok = await put({ first_name: 'Augusta' }, user.token);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ first_name: 'Augusta', last_name: 'Lovelace' });
    expect((await put({ first_name: 'A', last_name: 'B' }, user.token)).status).toBe(400);
    expect((await put({}, user.token)).status).toBe(400);
    expect((await put({ password_hash: 'x' }, user.token)).status).toBe(400);
  });

  it('answers 409 for a taken email and a working new access token on an email change', async () => {
    const a = await registerUser(server);
    const b = await registerUser(server);
    const taken = await put(
      { email: b.email.toUpperCase(), current_password: a.password },
      a.token,
    );
    expect(taken.status).toBe(409);
    expect(await taken.json()).toEqual({ error: 'Email already exists' });

    const changed = await put({ email: `new-${a.email}`, current_password: a.password }, a.token);
    expect(changed.status).toBe(200);
    const body = await changed.json();
    expect(body.email).toBe(`new-${a.email}`);
    const me = await server.request('/api/user', { token: body.access_token });
    expect((await me.json()).email).toBe(`new-${a.email}`);
    const login = await server.request('/api/login', {
      method: 'POST',
      json: { email: `new-${a.email}`, password: a.password },
    });
    expect(login.status).toBe(200);
  });

  it('changes the email only with the current password: an access token alone cannot', async () => {
    const user = await registerUser(server);
    const cases: [unknown, string][] = [
      [
        { email: `thief-${user.email}` },
        'current_password: Current password is required to change the email',
      ],
      [
        { email: `thief-${user.email}`, current_password: '' },
        'current_password: Current password is required to change the email',
      ],
      [
        { email: `thief-${user.email}`, current_password: 'not the password' },
        'Current password is incorrect',
      ],
    ];
    for (const [body, error] of cases) {
      const res = await put(body, user.token);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json()).toEqual({ error });
    }
    const me = await (await server.request('/api/user', { token: user.token })).json();
    expect(me.email).toBe(user.email);
    // The password goes with the email only: other fields refuse it like any unknown field.
    expect(
      (await put({ first_name: 'X', current_password: user.password }, user.token)).status,
    ).toBe(400);
  });

  it('changes the password only with the current one, and ends other sessions', async () => {
    const user = await registerUser(server);
    const other = await (
      await server.request('/api/login', {
        method: 'POST',
        json: { email: user.email, password: user.password },
      })
    ).json();
    const wrong = await server.request('/api/change_password', {
      method: 'POST',
      token: user.token,
      json: { current_password: 'not it at all', new_password: 'a new password' },
    });
    expect(wrong.status).toBe(400);
    const ok = await server.request('/api/change_password', {
      method: 'POST',
      token: user.token,
      json: { current_password: user.password, new_password: 'a new password' },
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ success: true, message: 'Password changed successfully!' });
    expect((await server.request('/api/user', { token: user.token })).status).toBe(200);
    expect((await server.request('/api/user', { token: other.access_token })).status).toBe(401);
  });

  it('refuses a weak or invalid new password with 400, and the old password still works', async () => {
    const user = await registerUser(server);
    const change = (json: unknown) =>
      server.request('/api/change_password', { method: 'POST', token: user.token, json });
    for (const [body, error] of [
      [
        { current_password: user.password, new_password: 'short' },
        'new_password: Password must be at least 8 characters',
      ],
      [
        { current_password: user.password, new_password: 'x'.repeat(129) },
        'new_password: Password must be at most 128 characters',
      ],
      [{ current_password: user.password }, 'new_password: Required'],
      [{ current_password: user.password, new_password: 12345678 }, /^new_password: /],
    ] as const) {
      const res = await change(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const message = (await res.json()).error;
      if (typeof error === 'string') expect(message).toBe(error);
      else expect(message).toMatch(error);
    }
    const login = (password: string) =>
      server.request('/api/login', { method: 'POST', json: { email: user.email, password } });
    expect((await login(user.password)).status).toBe(200);
    expect((await login('short')).status).toBe(401);
    // Nothing was changed, so the session was not ended either.
    expect((await server.request('/api/user', { token: user.token })).status).toBe(200);
  });

  it("exports profile, files, chat history and dictionary as user_data.csv, and no one else's files", async () => {
    const user = await registerUser(server, { first_name: 'Quote "me", please' });
    const me = await (await server.request('/api/user', { token: user.token })).json();
    const id = (
      await server.app.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', me.email)
        .executeTakeFirstOrThrow()
    ).id;
    await server.app.db
      .insertInto('chat_messages')
      .values({
        user_id: id,
        role: 'user',
        content: '=SUM(A1)',
        created_at: new Date().toISOString(),
      })
      .execute();
    const notes = await uploadOk(server, user.token, 'notes.txt', 'hello world');
    const table = await uploadOk(server, user.token, 'scores.csv', 'name,score\nada,10\n');
    const stranger = await registerUser(server);
    await uploadOk(server, stranger.token, 'stranger-secret.txt', 'not yours');
    const addWord = (token: string, word: string) =>
      server.request('/api/dictionary', { method: 'POST', token, json: { word } });
    expect((await addWord(user.token, 'Asha')).status).toBeLessThan(300);
    expect((await addWord(stranger.token, 'Strangerword')).status).toBeLessThan(300);

    const res = await server.request('/api/data-portability', { token: user.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="user_data.csv"');
    const csv = await res.text();
    expect(csv).toContain('profile,first_name,"Quote ""me"", please"');
    expect(csv).toContain(`profile,email,${user.email}`);
    expect(csv).toContain("chat,user,'=SUM(A1)");
    const fileRows = csv.split('\r\n').filter((line) => line.startsWith('file,'));
    expect(fileRows).toHaveLength(2);
    expect(fileRows).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          new RegExp(`^file,txt,notes\\.txt,${notes.size} bytes,\\d{4}-\\d{2}-\\d{2}T`),
        ),
        expect.stringMatching(
          new RegExp(`^file,csv,scores\\.csv,${table.size} bytes,\\d{4}-\\d{2}-\\d{2}T`),
        ),
      ]),
    );
    expect(notes).toMatchObject({ file_name: 'notes.txt', size: 11 });
    expect(csv).not.toContain('stranger-secret');
    // The personal dictionary is the user's data too; not another's.
    expect(csv).toContain('dictionary,word,Asha,,\r\n');
    expect(csv).not.toContain('Strangerword');
  });

  it('deletes the account with every row and stored file, and its tokens stop working', async () => {
    const user = await registerUser(server);
    const row = await server.app.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', user.email)
      .executeTakeFirstOrThrow();
    const key = `${userPrefix(row.id)}test-object`;
    await server.app.storage.put(key, Readable.from([Buffer.from('hello')]));
    await server.app.db
      .insertInto('files')
      .values({
        user_id: row.id,
        file_name: 'a.txt',
        type: 'txt',
        size: 5,
        storage_key: key,
        created_at: new Date().toISOString(),
      })
      .execute();

    // The password is asked for, and checked: a wrong or missing one deletes nothing.
    const wrong = await server.request('/api/delete_account', {
      method: 'DELETE',
      token: user.token,
      json: { current_password: 'not my password' },
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ error: 'Current password is incorrect' });
    const missing = await server.request('/api/delete_account', {
      method: 'DELETE',
      token: user.token,
      json: {},
    });
    expect(missing.status).toBe(400);
    expect((await server.request('/api/user', { token: user.token })).status).toBe(200);

    const res = await server.request('/api/delete_account', {
      method: 'DELETE',
      token: user.token,
      json: { current_password: user.password },
    });
    expect(res.status).toBe(200);
    for (const table of ['users', 'files', 'refresh_tokens', 'chat_messages'] as const) {
      const col = table === 'users' ? 'id' : 'user_id';
      const left = await server.app.db
        .selectFrom(table)
        .select(col)
        .where(col, '=', row.id)
        .execute();
      expect(left, table).toEqual([]);
    }
    const keys: string[] = [];
    for await (const k of server.app.storage.list(userPrefix(row.id))) keys.push(k);
    expect(keys).toEqual([]);
    expect((await server.request('/api/user', { token: user.token })).status).toBe(401);
    expect(
      (await server.request('/api/token/refresh', { method: 'POST', token: user.refresh_token }))
        .status,
    ).toBe(401);
  });

  it('requires a token on every users route', async () => {
    for (const [method, path] of [
      ['GET', '/api/user'],
      ['PUT', '/api/user'],
      ['POST', '/api/change_password'],
      ['GET', '/api/data-portability'],
      ['DELETE', '/api/delete_account'],
    ] as const) {
      expect((await server.request(path, { method })).status, path).toBe(401);
    }
  });
});
