// A disk that fills up under load (issue 36): the real server in its own process, default
// settings, DATA_DIR (SQLite database and stored files) on a 96 MB tmpfs. 20 users upload,
// read back and delete files for a minute while a filler file takes all the free space, then
// gives it back, then leaves 2 MB, in turns. Counts: uploads answered 201 whose bytes are not
// served back whole (lost; target 0), answers of 5xx other than 507 (target 0), files on disk
// without a row and rows without their file, temp files left, accounts whose used bytes differ
// from their files (all target 0), whether every user can upload once the space is back, and
// whether the server lived through it. Needs root to mount the tmpfs; says so and stops without
// figures otherwise.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { mountTinyFilesystem } from '../apps/server/test/tiny-filesystem';
import { machineLine, result } from './lib/machine';
import { startServerProcess } from './lib/product-server';

const USERS = 20;
const SECONDS = 60;
const SIZES = [40 * 1024, 300 * 1024, 1200 * 1024];
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/** A csv of about `bytes` bytes, different for every call. */
let made = 0;
function csv(bytes: number): Buffer {
  const seed = made++;
  const lines: string[] = [];
  for (let n = 0, i = 0; n < bytes; i++) {
    const line = `${seed},${i},gull,harbour,${(i * 7919) % 1000}\n`;
    lines.push(line);
    n += line.length;
  }
  return Buffer.from(lines.join(''));
}

async function main() {
  console.log(machineLine());
  const fs = mountTinyFilesystem(96);
  if ('reason' in fs) {
    console.log(`skipped: ${fs.reason}`);
    return;
  }
  console.log(`load average at start: ${load()}`);
  const server = await startServerProcess({ DATA_DIR: fs.dir });
  const api = (p: string, token: string, init: RequestInit = {}) =>
    fetch(`${server.url}${p}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, ...init.headers },
    });
  const upload = (token: string, name: string, bytes: Buffer) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), name);
    return api('/api/upload_file', token, { method: 'POST', body: form });
  };

  const tokens: string[] = [];
  for (let i = 0; i < USERS; i++) tokens.push(await server.register(`disk-${i}@example.com`));

  const statuses = new Map<number, number>();
  const count = (s: number) => statuses.set(s, (statuses.get(s) ?? 0) + 1);
  const kept = new Map<string, { token: string; id: number; sha: string }[]>();
  const lost: string[] = [];
  let running = true;

  const uploader = async (token: string, u: number) => {
    const mine: { token: string; id: number; sha: string }[] = [];
    kept.set(token, mine);
    for (let n = 0; running; n++) {
      const bytes = csv(SIZES[(u + n) % SIZES.length]!);
      const res = await upload(token, `u${u}-${n}.csv`, bytes).catch(() => undefined);
      if (!res) {
        count(0);
        continue;
      }
      count(res.status);
      const body = (await res.json().catch(() => ({}))) as { file?: { id: number } };
      if (res.status !== 201) continue;
      const file = { token, id: body.file!.id, sha: sha(bytes) };
      const back = await api(`/api/download_file/${file.id}`, token);
      if (sha(new Uint8Array(await back.arrayBuffer())) !== file.sha)
        lost.push(`user ${u} file ${file.id}: read back differs (${back.status})`);
      mine.push(file);
      if (mine.length > 3) {
        const gone = mine.shift()!;
        await api(`/api/delete_file/${gone.id}`, token, { method: 'DELETE' });
      }
    }
  };

  // The disk: full, room again, 2 MB left, room again... in 4-second turns.
  const turns = [() => fs.fill(0), () => fs.free(), () => fs.fill(2 * 2 ** 20), () => fs.free()];
  const started = Date.now();
  const uploaders = tokens.map((t, u) => uploader(t, u));
  for (let turn = 0; Date.now() - started < SECONDS * 1000; turn++) {
    turns[turn % turns.length]!();
    await sleep(4000);
  }
  fs.free();
  running = false;
  await Promise.all(uploaders);
  console.log(`load average at the end of the load: ${load()}`);

  // Space is back: everyone can upload, and every kept file is served whole.
  let againOk = 0;
  for (const [u, token] of tokens.entries()) {
    const bytes = csv(300 * 1024);
    const res = await upload(token, `again-${u}.csv`, bytes);
    if (res.status === 201) againOk++;
  }
  let usedMismatch = 0;
  for (const [token, files] of kept) {
    for (const f of files) {
      const back = await api(`/api/download_file/${f.id}`, token);
      if (sha(new Uint8Array(await back.arrayBuffer())) !== f.sha)
        lost.push(`file ${f.id}: not served whole at the end (${back.status})`);
    }
    const list = (await (await api('/api/my_files', token)).json()) as {
      files: { size: number }[];
      used_bytes: number;
    };
    if (list.used_bytes !== list.files.reduce((n, f) => n + f.size, 0)) usedMismatch++;
  }
  const health = await fetch(`${server.url}/api/health`).then(
    (r) => r.status,
    () => 0,
  );

  // What the disk holds against what the database says.
  const root = path.join(fs.dir, 'files');
  const onDisk = new Set(
    readdirSync(path.join(root, 'users'), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/')),
  );
  const tmpLeft = existsSync(path.join(root, '.tmp'))
    ? readdirSync(path.join(root, '.tmp')).length
    : 0;
  const db = new Database(path.join(fs.dir, 'inkwell.db'), { readonly: true });
  const rows = db.prepare('select storage_key, file_name from files').all() as {
    storage_key: string;
    file_name: string;
  }[];
  db.close();
  const keys = new Set(rows.map((r) => r.storage_key));
  const rowsWithoutFile = rows.filter((r) => !onDisk.has(r.storage_key)).length;
  const filesWithoutRow = [...onDisk].filter((k) => !keys.has(k)).length;
  const pending = rows.filter((r) => r.file_name.startsWith('.pending/')).length;
  await server.stop();
  fs.unmount();

  const fiveHundreds = [...statuses]
    .filter(([s]) => s >= 500 && s !== 507)
    .reduce((n, [, c]) => n + c, 0);
  console.log(
    `${USERS} users, ${SECONDS} s; upload answers: ${[...statuses]
      .sort((a, b) => a[0] - b[0])
      .map(([s, n]) => `${s}×${n}`)
      .join(', ')}`,
  );
  console.log(
    `end: rows ${rows.length} (pending ${pending}), files on disk ${onDisk.size}, temp files ${tmpLeft}; ` +
      `rows without file ${rowsWithoutFile}, files without row ${filesWithoutRow}; health ${health}`,
  );
  for (const l of lost.slice(0, 20)) console.log(`lost: ${l}`);
  result({
    name: 'disk full: uploads refused with 507',
    value: statuses.get(507) ?? 0,
    unit: 'answers',
  });
  result({
    name: 'disk full: uploads lost (answered 201, not served back whole)',
    value: lost.length,
    unit: 'uploads',
    target: '0',
    met: lost.length === 0,
  });
  result({
    name: 'disk full: answers of 5xx other than 507 (0 = no answer)',
    value: fiveHundreds + (statuses.get(0) ?? 0),
    unit: 'answers',
    target: '0',
    met: fiveHundreds + (statuses.get(0) ?? 0) === 0,
  });
  const halfWritten = rowsWithoutFile + filesWithoutRow + tmpLeft + pending;
  result({
    name: 'disk full: half-written leftovers (rows without file, files without row, temp files, pending rows)',
    value: halfWritten,
    unit: 'items',
    target: '0',
    met: halfWritten === 0,
  });
  result({
    name: 'disk full: accounts whose used bytes differ from their files',
    value: usedMismatch,
    unit: 'accounts',
    target: '0',
    met: usedMismatch === 0,
  });
  result({
    name: 'disk full: users who can upload again once space is back',
    value: againOk,
    unit: `of ${USERS}`,
    target: `${USERS}`,
    met: againOk === USERS,
  });
  result({
    name: 'disk full: server answering afterwards (GET /api/health)',
    value: health,
    unit: 'status',
    target: '200',
    met: health === 200,
  });
}

await main();
