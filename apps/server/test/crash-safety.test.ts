import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { testDialects } from './test-app';

/**
 * kill -9 during uploads, renames and deletes, then restart on the same data: every listed file
 * still downloads whole, nothing the user had and did not delete is lost, and no stored object is
 * left without its row (the start-up sweep reconciles both sides).
 */
const serverDir = path.resolve(import.meta.dirname, '..');

async function startServer(
  env: Record<string, string>,
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      MODEL_DOWNLOAD: 'off',
      AUTH_RATE_LIMIT: '10000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    // Started is a line it prints; a process that ends first failed. The limit only catches a
    // hang: a cold tsx compile on a loaded 2-core machine takes well over 30 s.
    const timer = setTimeout(() => reject(new Error(`no start: ${out}`)), 180_000);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code ?? signal}) before starting: ${out}`));
    });
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = out.match(/running at (http:\/\/[^/\s]+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!.replace('localhost', '127.0.0.1'));
      }
    });
    child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  });
  return { url, child };
}

const contentFor = (name: string) => `${name}\n`.repeat(40_000); // ~0.5-1 MB of text, known from the name

describe.each(testDialects())('crash safety (%s)', (dialect) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'inkwell-crash-'));
  const schema = `crash_${randomBytes(4).toString('hex')}`;
  // A JWT_SECRET of the run: on PostgreSQL the server requires one (the restarted server must
  // accept the tokens the killed one signed).
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
  };
  if (dialect === 'postgres')
    env.DATABASE_URL = `${process.env.TEST_DATABASE_URL}?options=-c%20search_path%3D${schema}`;

  afterAll(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    if (dialect === 'postgres') {
      const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
  });

  it('keeps the database and the stored files in agreement across kill -9, losing nothing', async () => {
    if (dialect === 'postgres') {
      const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
      await client.query(`CREATE SCHEMA ${schema}`);
      await client.end();
    }
    let server = await startServer(env);
    const creds = { email: 'crash@example.com', password: 'crash test password' };
    const api = (p: string, init: RequestInit & { token?: string } = {}) =>
      fetch(server.url + p, {
        ...init,
        headers: {
          ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
          ...(init.headers ?? {}),
        },
      });
    const reg = await api('/api/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(creds),
    });
    let token = ((await reg.json()) as { access_token: string }).access_token;
    const upload = (name: string) => {
      const form = new FormData();
      form.append('file', new Blob([contentFor(name)]), name);
      return api('/api/upload_file', { method: 'POST', token, body: form });
    };

    // An upload that sends its first bytes and then waits: the kill always finds it mid-way.
    const stalledUpload = (name: string) => {
      const boundary = 'crash-test-boundary';
      const head =
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
        `Content-Type: text/plain\r\n\r\n${contentFor(name).slice(0, 100_000)}`;
      const body = new ReadableStream({
        start: (c) => c.enqueue(new TextEncoder().encode(head)), // and never closes
      });
      return api('/api/upload_file', {
        method: 'POST',
        token,
        body,
        duplex: 'half',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      } as RequestInit);
    };

    const kept: Record<number, string> = {};
    for (const name of ['keep-a.txt', 'keep-b.txt', 'keep-c.txt', 'doomed-a.txt', 'doomed-b.txt']) {
      const res = await upload(name);
      expect(res.status).toBe(201);
      kept[((await res.json()) as { file: { id: number } }).file.id] = name;
    }
    const ids = Object.keys(kept).map(Number);

    // Chaos: uploads, renames and deletes in flight, then SIGKILL with no chance to clean up.
    const inFlight = [
      ...Array.from({ length: 8 }, (_, i) => upload(`new-${i}.txt`)),
      stalledUpload('stalled.txt'),
      api(`/api/rename_file/${ids[0]}`, {
        method: 'PATCH',
        token,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ new_name: 'renamed-a' }),
      }),
      api(`/api/rename_file/${ids[1]}`, {
        method: 'PATCH',
        token,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ new_name: 'renamed-b' }),
      }),
      api(`/api/delete_file/${ids[3]}`, { method: 'DELETE', token }),
      api(`/api/delete_file/${ids[4]}`, { method: 'DELETE', token }),
    ].map((p) => p.catch(() => null));
    await new Promise((r) => setTimeout(r, 60));
    const exited = new Promise((r) => server.child.once('exit', r));
    server.child.kill('SIGKILL');
    const [, ...outcomes] = await Promise.all([exited, ...inFlight]);
    // The kill must have landed mid-way: some requests were cut off without an answer.
    expect(outcomes.filter((o) => o === null).length).toBeGreaterThan(0);

    server = await startServer(env);
    const login = await api('/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(creds),
    });
    token = ((await login.json()) as { access_token: string }).access_token;
    const list = (await (await api('/api/my_files', { token })).json()) as {
      files: { id: number; file_name: string }[];
      used_bytes: number;
    };

    // Every listed file downloads whole; its bytes are those its original name stands for.
    let listedBytes = 0;
    for (const f of list.files) {
      const res = await api(`/api/download_file/${f.id}`, { token });
      expect(res.status, f.file_name).toBe(200);
      const body = await res.text();
      const original = kept[f.id] ?? f.file_name;
      expect(body === contentFor(original), `${f.id} ${f.file_name}`).toBe(true);
      listedBytes += Buffer.byteLength(body);
    }
    // The three files that were never deleted are all still there, renamed or not.
    const listedIds = new Set(list.files.map((f) => f.id));
    for (const id of ids.slice(0, 3)) expect(listedIds.has(id), kept[id]).toBe(true);
    // Stored objects and rows agree: one object per listed file, and the quota counts exactly them.
    const userDirs = readdirSync(path.join(dataDir, 'files', 'users'));
    const objects = userDirs.flatMap((d) => readdirSync(path.join(dataDir, 'files', 'users', d)));
    expect(objects.length).toBe(list.files.length);
    expect(list.used_bytes).toBeGreaterThanOrEqual(listedBytes);

    const stopped = new Promise((r) => server.child.once('exit', r));
    server.child.kill('SIGTERM');
    await stopped;
  }, 300_000);
});
