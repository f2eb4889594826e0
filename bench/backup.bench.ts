// Backup (issue "The operator's path"): `npm run backup` of a large set of files while many
// signed-in users work (file list, preview, chat, small uploads). Prints the server's p99 latency
// before and during the backup (target: within 2x), how long the backup took and its archive
// size, and whether `npm run restore` into a fresh DATA_DIR gave back every file of the snapshot
// (every file row's object, byte for byte against the server's own copy). BACKUP_BENCH_MB scales
// the data (default 1024 MB); BACKUP_BENCH_USERS the users (default 50).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type Options, type Result } from 'autocannon';
import SQLite from 'better-sqlite3';
import { startOpenAITestServer } from '../apps/server/test/openai-test-server';
import { machineLine, mb, result } from './lib/machine';
import { startServerProcess } from './lib/product-server';
import { encodeForm } from './lib/raw-http';

const repoRoot = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const TOTAL_MB = Number(process.env.BACKUP_BENCH_MB ?? 1024);
const USERS = Number(process.env.BACKUP_BENCH_USERS ?? 50);
// The largest text file accepted (txt: 2 MB).
const FILE_MB = 2;
const BASELINE_S = 30;
// A response slower than autocannon's default 10 s timeout is still a latency to report: with the
// default, a saturated machine turned every baseline request into a timeout (no latency, p99 0).
const TIMEOUT_S = 120;
// The uploads leave work behind (text extraction, indexing); the baseline waits for it to drain.
const SETTLE_TRIES = 10;

interface User {
  token: string;
  fileId: number;
}

const textForm = (name: string, text: string) => {
  const form = new FormData();
  form.append('file', new Blob([text], { type: 'text/plain' }), name);
  return encodeForm(form);
};

async function upload(url: string, token: string, name: string, text: string): Promise<number> {
  const up = await textForm(name, text);
  const res = await fetch(`${url}/api/upload_file`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': up.contentType },
    body: new Uint8Array(up.body),
  });
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { file: { id: number } }).file.id;
}

/** `npm run backup` / `npm run restore` as the operator runs them, on the server's DATA_DIR. */
function cli(command: 'backup' | 'restore', archive: string, dataDir: string) {
  return new Promise<number>((resolve, reject) => {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/features/backup/backup-cli.ts', command, archive],
      {
        cwd: path.join(repoRoot, 'apps/server'),
        env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, ENV_FILE: '/dev/null' },
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    child.once('exit', (code) =>
      code === 0 ? resolve(performance.now() - started) : reject(new Error(`${command}: ${code}`)),
    );
  });
}

const sha256 = (file: string) =>
  new Promise<string>((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (c) => hash.update(c))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });

async function main() {
  console.log(machineLine());
  const ai = await startOpenAITestServer({ reply: () => 'A short canned answer.' });
  const server = await startServerProcess({
    AI_BASE_URL: ai.url,
    PROMPT_LIMIT: '1000000',
  });
  const work = mkdtempSync(path.join(tmpdir(), 'inkwell-backup-bench-'));
  try {
    // The data: USERS accounts sharing TOTAL_MB of 2 MB text files (random, so they compress
    // about as well as stored documents do: hex digits, 2:1).
    const users: User[] = [];
    const files = Math.ceil(TOTAL_MB / FILE_MB);
    const seeded = performance.now();
    for (let i = 0; i < USERS; i++)
      users.push({ token: await server.register(`b${i}@example.com`), fileId: 0 });
    for (let f = 0; f < files; f += 4) {
      await Promise.all(
        Array.from({ length: Math.min(4, files - f) }, async (_, k) => {
          const user = users[(f + k) % USERS]!;
          const text = randomBytes((FILE_MB * 2 ** 20) / 2).toString('hex');
          user.fileId = await upload(server.url, user.token, `doc-${f + k}.txt`, text);
        }),
      );
    }
    console.log(
      `${USERS} users, ${files} files of ${FILE_MB} MB (${files * FILE_MB} MB) uploaded in ` +
        `${((performance.now() - seeded) / 1000).toFixed(0)} s`,
    );

    const small = await textForm('note.txt', 'A small note uploaded during the backup.');
    let next = 0;
    type Ctx = { user?: User };
    const auth = (ctx: Ctx) => {
      ctx.user ??= users[next++ % users.length]!;
      return { authorization: `Bearer ${ctx.user.token}` };
    };
    const workload: Options = {
      url: server.url,
      connections: USERS,
      timeout: TIMEOUT_S,
      requests: [
        {
          method: 'GET',
          path: '/api/my_files',
          setupRequest: (r, ctx: Ctx) => ({ ...r, headers: auth(ctx) }),
        },
        {
          method: 'GET',
          setupRequest: (r, ctx: Ctx) => ({
            ...r,
            headers: auth(ctx),
            path: `/api/preview_file/${ctx.user!.fileId}`,
          }),
        },
        {
          method: 'POST',
          path: '/api/chat',
          setupRequest: (r, ctx: Ctx) => ({
            ...r,
            headers: { ...auth(ctx), 'content-type': 'application/json' },
            body: JSON.stringify({ text: 'How do I write a good summary?' }),
          }),
        },
        {
          method: 'POST',
          path: '/api/upload_file',
          setupRequest: (r, ctx: Ctx) => ({
            ...r,
            headers: { ...auth(ctx), 'content-type': small.contentType },
            body: small.body,
          }),
        },
      ],
    };
    const work_ = (duration: number) => autocannon({ ...workload, duration });

    // Warm-up, also letting the server finish what the uploads started: repeated until a run is
    // answered without errors, so the baseline measures the settled server, not its backlog.
    for (let t = 1; t <= SETTLE_TRIES; t++) {
      const warm = await work_(20);
      console.log(
        `warm-up ${t}: ${warm.requests.total} requests, p99 ${warm.latency.p99} ms, ` +
          `${warm.errors + warm.timeouts} errors`,
      );
      if (warm.requests.total > 0 && warm.errors + warm.timeouts === 0) break;
    }
    const before = await work_(BASELINE_S);
    if (before.requests.total === 0) throw new Error('the baseline got no response at all');
    // The same work, for as long as the backup runs.
    const archive = path.join(work, 'inkwell.tar.gz');
    let stopDuring = () => {};
    const during = new Promise<Result>((resolve, reject) => {
      const instance = autocannon({ ...workload, duration: 3600 }, (err, r) =>
        err ? reject(err) : resolve(r),
      );
      stopDuring = () => instance.stop();
    });
    const backupMs = await cli('backup', archive, server.dataDir);
    stopDuring();
    const under = await during;
    const ratio = under.latency.p99 / before.latency.p99;
    console.log(
      `p99 before ${before.latency.p99} ms (${before.requests.total} requests in ${BASELINE_S} s), ` +
        `during the backup ${under.latency.p99} ms (${under.requests.total} requests); errors ` +
        `${before.errors + before.non2xx} before, ${under.errors + under.non2xx} during`,
    );
    const archiveMb = mb(statSync(archive).size);
    console.log(`backup: ${(backupMs / 1000).toFixed(1)} s, archive ${archiveMb.toFixed(0)} MB`);

    // Restore into a fresh DATA_DIR; every file row of the snapshot has its object, byte for byte.
    const restored = path.join(work, 'restored');
    const restoreMs = await cli('restore', archive, restored);
    const db = new SQLite(path.join(restored, 'inkwell.db'), { readonly: true });
    const rows = db
      .prepare(
        // Not the reservations of uploads that were running at the snapshot (the start-up sweep
        // removes them): they have no finished object yet.
        `SELECT storage_key, size FROM files WHERE file_name NOT LIKE '.pending/%'`,
      )
      .all() as {
      storage_key: string;
      size: number;
    }[];
    const accounts = (db.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n;
    db.close();
    let whole = 0;
    for (const row of rows) {
      const copy = path.join(restored, 'files', row.storage_key);
      const original = path.join(server.dataDir, 'files', row.storage_key);
      const same =
        statSync(copy, { throwIfNoEntry: false })?.size === row.size &&
        (await sha256(copy)) === (await sha256(original));
      if (same) whole += 1;
    }
    console.log(
      `restore: ${(restoreMs / 1000).toFixed(1)} s; ${accounts} accounts, ${whole} of ${rows.length} ` +
        `files whole (sha-256 against the server's own)`,
    );

    result({ name: 'p99 latency before the backup', value: before.latency.p99, unit: 'ms' });
    result({ name: 'p99 latency during the backup', value: under.latency.p99, unit: 'ms' });
    result({
      name: `p99 during / before (${files * FILE_MB} MB, ${USERS} users)`,
      value: Number(ratio.toFixed(2)),
      unit: 'x',
      target: '≤ 2x',
      met: ratio <= 2,
    });
    result({ name: 'backup duration', value: Number((backupMs / 1000).toFixed(1)), unit: 's' });
    result({ name: 'archive size', value: Math.round(archiveMb), unit: 'MB' });
    result({
      name: 'files restored whole',
      value: whole,
      unit: `of ${rows.length}`,
      target: 'all',
      met: whole === rows.length && rows.length >= files,
    });
  } finally {
    await server.stop();
    await ai.close();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
