import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-app';
import { uploadOk } from '../files/testing';
import type { BackupStep } from './backup';
import { runBackupCli } from './backup-cli';

/**
 * `npm run backup` stopped by Ctrl-C (SIGINT) or SIGTERM, or killed outright, while a server
 * runs on the DATA_DIR: the real command as its own process, paused before a known step by a
 * fixture, so the signal lands where the test says. Nothing it made may stay behind (the staging
 * folder holds hard links to every stored file); what a killed one left is removed by the next
 * backup and by the server's start. And what it writes is private: 0600 archive, 0700 folders.
 */
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const pausedCli = path.join(serverDir, 'src/features/backup/test-fixtures/paused-backup-cli.ts');

interface Paused {
  /** Resolves once the process prints that it paused. */
  paused: Promise<void>;
  signal(name: NodeJS.Signals): void;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>;
}

function pausedBackup(step: BackupStep, dataDir: string, archive: string): Paused {
  const child = spawn(process.execPath, ['--import', 'tsx', pausedCli, step, 'backup', archive], {
    cwd: serverDir,
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, ENV_FILE: '/dev/null' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const paused = new Promise<void>((resolve, reject) => {
    for (const stream of [child.stdout, child.stderr])
      stream.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes(`paused before ${step}`)) resolve();
      });
    child.once('exit', () => reject(new Error(`the backup ended before pausing: ${output}`)));
  });
  const exited = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    output: string;
  }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, output })));
  return { paused, signal: (name) => child.kill(name), exited };
}

const stagingFolders = (dataDir: string) =>
  readdirSync(dataDir).filter((name) => name.startsWith('.backup-'));
const modeOf = (file: string) => statSync(file).mode & 0o777;

describe('an interrupted backup', () => {
  let server: TestServer;
  /** Every server started, closed last first (the first one removes the DATA_DIR). */
  const servers: TestServer[] = [];
  const work = mkdtempSync(path.join(tmpdir(), 'inkwell-backup-stop-'));
  let storedFiles = 0;
  beforeAll(async () => {
    server = await startTestServer();
    servers.push(server);
    for (let i = 0; i < 3; i++) {
      const user = await registerUser(server);
      for (let f = 0; f < 4; f++)
        await uploadOk(
          server,
          user.token,
          `f${f}.txt`,
          Buffer.from(randomBytes(4000).toString('hex')),
        );
      storedFiles += 4;
    }
  });
  afterAll(async () => {
    for (const s of servers.reverse()) await s.close();
    rmSync(work, { recursive: true, force: true });
  });

  it.each([
    ['SIGINT', 'database', 130],
    ['SIGTERM', 'archive', 143],
    ['SIGINT', 'writing archive', 130],
  ] as const)(
    '%s before "%s" removes its staging folder and partial archive, and ends %i',
    async (signal, step, exitCode) => {
      const folder = path.join(work, `stopped-${step.replace(' ', '-')}`);
      const archive = path.join(folder, 'backup.tar.gz');
      const run = pausedBackup(step, server.dataDir, archive);
      await run.paused;
      // Caught in the middle: its staging folder (0700) holds a link to every stored file.
      const [staging] = stagingFolders(server.dataDir);
      expect(staging).toBeDefined();
      const stagingPath = path.join(server.dataDir, staging!);
      expect(modeOf(stagingPath)).toBe(0o700);
      const linked = readdirSync(path.join(stagingPath, 'files'), { recursive: true }).filter((f) =>
        statSync(path.join(stagingPath, 'files', String(f))).isFile(),
      );
      expect(linked.length).toBeGreaterThanOrEqual(storedFiles);
      if (step === 'writing archive') {
        const [partial] = readdirSync(folder);
        expect(partial).toMatch(/^backup\.tar\.gz\.partial-/);
        expect(modeOf(path.join(folder, partial!))).toBe(0o600);
      }

      run.signal(signal);
      const ended = await run.exited;
      expect(ended.code, ended.output).toBe(exitCode);
      expect(ended.output).toMatch(`Backup stopped (${signal}): what it had made is removed.`);
      expect(stagingFolders(server.dataDir)).toEqual([]);
      expect(existsSync(folder) ? readdirSync(folder) : []).toEqual([]);
    },
    60_000,
  );

  it('a killed backup leaves what it made; the next backup and the server start remove it', async () => {
    const folder = path.join(work, 'killed');
    const archive = path.join(folder, 'backup.tar.gz');
    const kill = async (step: BackupStep, target: string) => {
      const run = pausedBackup(step, server.dataDir, target);
      await run.paused;
      run.signal('SIGKILL');
      expect((await run.exited).signal).toBe('SIGKILL');
    };
    await kill('writing archive', archive);
    // A crash could not clean up: its staging folder and partial archive are there.
    expect(stagingFolders(server.dataDir)).toHaveLength(1);
    expect(readdirSync(folder)).toEqual([expect.stringMatching(/^backup\.tar\.gz\.partial-/)]);

    // The next backup, to the same folder: only its own archive is left.
    expect(await runBackupCli(['backup', archive], { DATA_DIR: server.dataDir })).toMatch(
      /^Backed up /,
    );
    expect(stagingFolders(server.dataDir)).toEqual([]);
    expect(readdirSync(folder)).toEqual(['backup.tar.gz']);

    // Killed again; this time the server's next start finds what it left.
    await kill('database', path.join(folder, 'again.tar.gz'));
    expect(stagingFolders(server.dataDir)).toHaveLength(1);
    await server.stop();
    server = await startTestServer({ sharing: server });
    servers.push(server);
    expect(stagingFolders(server.dataDir)).toEqual([]);
  }, 120_000);

  it('writes the archive 0600 into a folder it makes 0700', async () => {
    const folder = path.join(work, 'private', 'nested');
    const archive = path.join(folder, 'backup.tar.gz');
    await runBackupCli(['backup', archive], { DATA_DIR: server.dataDir });
    expect(modeOf(archive)).toBe(0o600);
    expect(modeOf(folder)).toBe(0o700);
    expect(modeOf(path.dirname(folder))).toBe(0o700);

    // Restored, it stays as private: every folder 0700, every file 0600.
    const restored = path.join(work, 'restored');
    await runBackupCli(['restore', archive], { DATA_DIR: restored });
    const entries = readdirSync(restored, { recursive: true }).map((e) =>
      path.join(restored, String(e)),
    );
    expect(entries.length).toBeGreaterThan(storedFiles);
    for (const entry of entries)
      expect(modeOf(entry), entry).toBe(statSync(entry).isDirectory() ? 0o700 : 0o600);
  }, 60_000);
});
