import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, loadSettings } from './config';
import { ConfigError, PROJECT_ROOT, readEnvironment } from './environment';
import { publicAppUrl } from './lib/public-url';

const dir = mkdtempSync(path.join(tmpdir(), 'inkwell-env-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function envFile(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

describe('readEnvironment: .env under the real environment', () => {
  it('reads the file, lets the real environment win, and takes an empty value as the default', () => {
    const file = envFile(
      'a.env',
      '# comment\nPORT=8791\nPUBLIC_URL=\nMAIL_FROM="Ink <ink@example.com>"\nLOG_LEVEL=debug\n',
    );
    const env = readEnvironment({ ENV_FILE: file, LOG_LEVEL: 'warn' });
    expect(env.PORT).toBe('8791');
    expect(env.MAIL_FROM).toBe('Ink <ink@example.com>');
    expect(env.LOG_LEVEL).toBe('warn');
    expect('PUBLIC_URL' in env).toBe(false);
    const settings = loadSettings({ ...env, DATA_DIR: path.join(dir, 'data') });
    expect(settings.PORT).toBe(8791);
    // PUBLIC_URL unset: the links name the port the server listens on.
    expect(publicAppUrl(settings)).toBe('http://localhost:8791/');
  });

  it('runs on the defaults with no .env, and refuses an ENV_FILE that does not exist', () => {
    expect(readEnvironment({ ENV_FILE: envFile('empty.env', '') })).toEqual({
      ENV_FILE: path.join(dir, 'empty.env'),
    });
    expect(() => readEnvironment({ ENV_FILE: path.join(dir, 'missing.env') })).toThrow(ConfigError);
    expect(() => loadConfig({ ENV_FILE: path.join(dir, 'missing.env') })).not.toThrow();
  });

  it('resolves a relative DATA_DIR from the project root, not from the working directory', () => {
    const relative = path.relative(PROJECT_ROOT, path.join(dir, 'relative-data'));
    expect(loadSettings({ DATA_DIR: relative }).dataDir).toBe(path.join(dir, 'relative-data'));
    expect(path.isAbsolute(relative)).toBe(false);
  });
});

describe('npm run users reads the same settings as the server', () => {
  const run = promisify(execFile);
  /** The CLI as `npm run users` runs it (cwd apps/server), or from another directory. */
  // tsx from the repository's node_modules, whatever the working directory.
  const tsx = pathToFileURL(path.join(PROJECT_ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
  const cli = path.join(PROJECT_ROOT, 'apps/server/src/features/admin/users-cli.ts');
  const users = (cwd: string, env: Record<string, string>, ...argv: string[]) =>
    run(process.execPath, ['--import', tsx, cli, ...argv], {
      cwd,
      env: { PATH: process.env.PATH ?? '', ...env },
    });

  it('uses .env: the DATA_DIR (relative, from the project root) and the links of PUBLIC_URL', async () => {
    const dataDir = path.join(dir, 'cli-data');
    const file = envFile(
      'cli.env',
      `DATA_DIR=${path.relative(PROJECT_ROOT, dataDir)}\nPORT=8791\nREGISTRATION=invite\n`,
    );
    const fromServerDir = await users(
      path.join(PROJECT_ROOT, 'apps/server'),
      { ENV_FILE: file },
      'invite',
      'ada@example.com',
    );
    expect(fromServerDir.stdout).toMatch(/\nhttp:\/\/localhost:8791\/register\?invite=\S+/);
    expect(existsSync(path.join(dataDir, 'inkwell.db'))).toBe(true);
    expect(
      existsSync(path.join(PROJECT_ROOT, 'apps/server', path.relative(PROJECT_ROOT, dataDir))),
    ).toBe(false);

    // From another directory, with PUBLIC_URL in the real environment: the same database (the
    // invitation is there: inviting again replaces it), the public address in the link.
    const elsewhere = await users(
      tmpdir(),
      { ENV_FILE: file, PUBLIC_URL: 'https://inkwell.example.com' },
      'invite',
      'grace@example.com',
    );
    expect(elsewhere.stdout).toMatch(/\nhttps:\/\/inkwell\.example\.com\/register\?invite=\S+/);
    const listed = await users(tmpdir(), { ENV_FILE: file }, 'list');
    expect(listed.stdout).toMatch(/No accounts yet/);
  }, 60_000);
});
