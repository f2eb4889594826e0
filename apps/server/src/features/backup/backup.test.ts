import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAITestServer, type OpenAITestServer } from '../../../test/openai-test-server';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-app';
import { uploadOk } from '../files/testing';
import { backup, BackupError } from './backup';
import { runBackupCli } from './backup-cli';
import { restore } from './restore';

interface Account {
  email: string;
  password: string;
  token: string;
  /** file id → bytes uploaded */
  files: Map<number, Buffer>;
  questions: string[];
}

/** Text of `length` bytes that no two calls share (uploads accept text, not arbitrary bytes). */
const randomText = (length: number) =>
  Buffer.from(
    randomBytes(Math.ceil(length / 2))
      .toString('hex')
      .slice(0, length),
  );

const ask = (server: TestServer, token: string, text: string) =>
  server.request('/api/chat', { method: 'POST', token, json: { text } }).then((r) => {
    if (r.status !== 200) throw new Error(`chat: ${r.status}`);
  });

/**
 * `npm run backup` while the server takes uploads, deletes and chats; `npm run restore` into a
 * fresh DATA_DIR; a server on the restored data gives every account, message and file back.
 */
describe('backup under load and restore', () => {
  let ai: OpenAITestServer;
  let server: TestServer;
  let restored: TestServer | undefined;
  const work = mkdtempSync(path.join(tmpdir(), 'inkwell-backup-'));
  const accounts: Account[] = [];
  beforeAll(async () => {
    ai = await startOpenAITestServer();
    server = await startTestServer({
      env: { AI_BASE_URL: ai.url, AI_MODEL: 'test-model', PROMPT_LIMIT: '10000' },
    });
    for (let i = 0; i < 4; i++) {
      const user = await registerUser(server);
      const account: Account = { ...user, files: new Map(), questions: [] };
      for (let f = 0; f < 3; f++) {
        const bytes = randomText(20_000 + f * 150_000 + i * 1000);
        account.files.set((await uploadOk(server, user.token, `f${f}.txt`, bytes)).id, bytes);
      }
      for (const q of [`question one of ${i}`, `question two of ${i}`]) {
        await ask(server, user.token, q);
        account.questions.push(q);
      }
      accounts.push(account);
    }
  });
  afterAll(async () => {
    await restored?.close();
    await server?.close();
    await ai?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('snapshots while writes go on, and the restore gives everything back byte for byte', async () => {
    // The load: one account uploading, deleting and chatting without pause.
    const busy = await registerUser(server);
    const kept = new Map<number, Buffer>();
    let writes = 0;
    let stop = false;
    const waiters: (() => void)[] = [];
    const load = (async () => {
      for (let n = 0; !stop; n++) {
        const bytes = randomText(5_000 + (n % 7) * 30_000);
        const { id } = await uploadOk(server, busy.token, `load-${n}.txt`, bytes);
        kept.set(id, bytes);
        await ask(server, busy.token, `load question ${n}`);
        if (n % 3 === 2) {
          const oldest = [...kept.keys()][0]!;
          const res = await server.request(`/api/delete_file/${oldest}`, {
            method: 'DELETE',
            token: busy.token,
          });
          expect(res.status).toBe(200);
          kept.delete(oldest);
        }
        writes += 1;
        waiters.splice(0).forEach((w) => w());
      }
    })();
    const nextWrite = () => new Promise<void>((resolve) => waiters.push(resolve));

    // A server that generated its signing key keeps it in DATA_DIR (this one was given one).
    const key = randomBytes(48).toString('base64url');
    writeFileSync(path.join(server.dataDir, 'jwt-secret'), key, { mode: 0o600 });
    const archive = path.join(work, 'out', 'snapshot.tar.gz');
    const steps: string[] = [];
    const during = writes;
    // Before each step, the server finishes another round of writes.
    await backup(server.app.config, archive, {
      onStep: async (step) => {
        steps.push(step);
        await nextWrite();
      },
    });
    expect(steps).toEqual(['files', 'database', 'new files', 'archive', 'writing archive']);
    expect(writes - during).toBeGreaterThanOrEqual(5);
    stop = true;
    await load;

    // Into a fresh DATA_DIR; a server started on it, with the restored signing key.
    const fresh = path.join(work, 'restored');
    const { entries } = await restore(archive, fresh);
    expect(entries).toEqual(expect.arrayContaining(['files', 'inkwell.db', 'jwt-secret']));
    expect(readFileSync(path.join(fresh, 'jwt-secret'), 'utf8')).toBe(key);
    restored = await startTestServer({
      env: { DATA_DIR: fresh, JWT_SECRET: key, AI_BASE_URL: ai.url, AI_MODEL: 'test-model' },
    });
    for (const account of accounts) {
      const login = await restored.request('/api/login', {
        method: 'POST',
        json: { email: account.email, password: account.password },
      });
      expect(login.status, account.email).toBe(200);
      const { access_token: token } = (await login.json()) as { access_token: string };
      const listed = (await (await restored.request('/api/my_files', { token })).json()) as {
        files: { id: number }[];
      };
      expect(listed.files.map((f) => f.id).sort()).toEqual([...account.files.keys()].sort());
      for (const [id, bytes] of account.files) {
        const res = await restored.request(`/api/download_file/${id}`, { token });
        expect(Buffer.from(await res.arrayBuffer()).equals(bytes), `file ${id}`).toBe(true);
      }
      const history = (await (await restored.request('/api/chat/history', { token })).json()) as {
        messages: { role: string; text: string }[];
      };
      expect(history.messages.filter((m) => m.role === 'user').map((m) => m.text)).toEqual(
        account.questions,
      );
    }
    // The busy account: every file row of the snapshot has its object, with the bytes uploaded.
    const login = await restored.request('/api/login', {
      method: 'POST',
      json: { email: busy.email, password: busy.password },
    });
    const { access_token: token } = (await login.json()) as { access_token: string };
    const listed = (await (await restored.request('/api/my_files', { token })).json()) as {
      files: { id: number; file_name: string }[];
    };
    expect(listed.files.length).toBeGreaterThan(0);
    for (const file of listed.files) {
      const res = await restored.request(`/api/download_file/${file.id}`, { token });
      expect(res.status, file.file_name).toBe(200);
      const bytes = Buffer.from(await res.arrayBuffer());
      // Uploaded before the snapshot; deleted afterwards or kept to the end.
      const n = Number(/load-(\d+)/.exec(file.file_name)![1]);
      expect(bytes.length, file.file_name).toBe(5_000 + (n % 7) * 30_000);
      if (kept.has(file.id)) expect(bytes.equals(kept.get(file.id)!)).toBe(true);
    }
  }, 120_000);

  it('refuses to restore into a DATA_DIR that holds anything, and an archive not of ours', async () => {
    const archive = path.join(work, 'again.tar.gz');
    await backup(server.app.config, archive);
    const used = path.join(work, 'used');
    mkdirSync(used);
    writeFileSync(path.join(used, 'inkwell.db'), 'mine');
    await expect(restore(archive, used)).rejects.toThrow(/is not empty.*restore into an empty/);

    const foreign = path.join(work, 'foreign.tar.gz');
    const tar = await import('tar');
    mkdirSync(path.join(work, 'junk'));
    writeFileSync(path.join(work, 'junk', 'notes.txt'), 'hello');
    await tar.create({ gzip: true, file: foreign, cwd: path.join(work, 'junk') }, ['notes.txt']);
    const empty = path.join(work, 'empty');
    await expect(restore(foreign, empty)).rejects.toThrow(BackupError);
    expect(await import('node:fs/promises').then((fs) => fs.readdir(empty))).toEqual([]);
  });

  it('npm run backup and restore: the commands, and PostgreSQL or S3 sent to their own tools', async () => {
    const archive = path.join(work, 'cli.tar.gz');
    expect(await runBackupCli(['backup', archive], { DATA_DIR: server.dataDir })).toMatch(
      /^Backed up .* to .*cli\.tar\.gz$/,
    );
    const fresh = path.join(work, 'cli-restored');
    expect(await runBackupCli(['restore', archive], { DATA_DIR: fresh })).toMatch(
      /^Restored .*inkwell\.db.* into /,
    );
    await expect(
      runBackupCli(['backup', archive], { DATA_DIR: fresh, DATABASE_URL: 'postgres://db/x' }),
    ).rejects.toThrow(/pg_dump/);
    await expect(
      runBackupCli(['backup'], {
        DATA_DIR: fresh,
        S3_ENDPOINT: 'http://127.0.0.1:9',
        S3_BUCKET: 'b',
      }),
    ).rejects.toThrow(/copy the bucket/);
    await expect(runBackupCli(['restore'], { DATA_DIR: fresh })).rejects.toThrow(
      /archive is required/,
    );
  });
});
