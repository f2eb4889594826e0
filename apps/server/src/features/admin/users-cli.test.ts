import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from '../../../test/outbox';
import {
  registerUser,
  startTestServer,
  testDialects,
  type TestServer,
} from '../../../test/test-app';
import { recordServerPort } from '../../lib/server-port';
import { ALERT_USAGE, alertCli } from '../alerts';
import { uploadOk } from '../files/testing';
import { runUsersCli, usersCli, USERS_USAGE } from './users-cli';

const repoRoot = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../../..');

describe.each(testDialects())('npm run users (%s)', (dialect) => {
  let server: TestServer;
  /** The CLI opens the database itself, the way an operator runs it beside the server. */
  let env: Record<string, string | undefined>;
  beforeAll(async () => {
    const settings = {
      REGISTRATION: 'invite',
      PUBLIC_URL: 'https://inkwell.example.com',
      BASE_PATH: '/assistant/',
    };
    server = await startTestServer({ dialect, env: settings });
    env = { ...settings, DATA_DIR: server.dataDir, DATABASE_URL: server.databaseUrl };
  });
  afterAll(() => server.close());

  const users = (...argv: string[]) => runUsersCli(argv, env);

  it('invites (printing the link, mailing it with --mail), and the link signs up once', async () => {
    const printed = await users('invite', 'Ada@Example.com');
    const link = /https:\/\/inkwell\.example\.com\/assistant\/register\?\S+/.exec(printed)?.[0];
    expect(printed).toMatch(/^Invitation created for ada@example\.com\. Single-use link/);
    expect(link).toBeDefined();
    expect(readOutbox(server.dataDir)).toEqual([]);
    const invite = new URL(link!).searchParams.get('invite')!;
    const signUp = () =>
      server.request('/api/register', {
        method: 'POST',
        json: { email: 'ada@example.com', password: 'a long password', invite },
      });
    expect((await signUp()).status).toBe(201);
    expect((await signUp()).status).toBe(400);

    expect(await users('invite', 'grace@example.com', '--mail')).toMatch(
      /^Invitation sent to grace@example\.com\./,
    );
    const mails = readOutbox(server.dataDir);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('To: grace@example.com');
    await expect(users('invite', 'ada@example.com')).rejects.toThrow(
      'An account with this email already exists',
    );
  });

  it('lists accounts with role, status, created, last seen, files, storage and prompts today', async () => {
    const invite = async (email: string) => {
      const line = await users('invite', email);
      return new URL(/https:\S+/.exec(line)![0]).searchParams.get('invite')!;
    };
    const email = 'lister@example.com';
    const user = await registerUser(server, { email, invite: await invite(email) });
    await uploadOk(server, user.token, 'notes.txt', 'x'.repeat(2048));
    const table = (await users('list')).split('\n');
    expect(table[0]).toMatch(
      /^ID +EMAIL +NAME +ROLE +STATUS +CREATED +LAST SEEN +FILES +STORAGE +PROMPTS TODAY$/,
    );
    const row = table.find((l) => l.includes(email));
    expect(row).toMatch(
      /^\d+ +lister@example\.com +Ada Lovelace +user +active +\d{4}-\d\d-\d\d \d\d:\d\d +\d{4}-\d\d-\d\d \d\d:\d\d +1 +2\.0 KB +0$/,
    );
    // The first account (the invitation test's) is the operator: ADMIN_EMAILS is unset.
    expect(table.find((l) => l.includes('ada@example.com'))).toMatch(/ operator +active /);
  });

  it('disables (ending the sessions at once), enables and deletes by email', async () => {
    const email = 'target@example.com';
    const line = await users('invite', email);
    const invite = new URL(/https:\S+/.exec(line)![0]).searchParams.get('invite')!;
    const user = await registerUser(server, { email, invite });
    expect((await server.request('/api/user', { token: user.token })).status).toBe(200);

    expect(await users('disable', email)).toBe(`Disabled ${email}: its sessions have ended.`);
    expect((await server.request('/api/user', { token: user.token })).status).toBe(401);
    expect((await users('list')).split('\n').find((l) => l.includes(email))).toMatch(/ disabled /);
    const login = () =>
      server.request('/api/login', { method: 'POST', json: { email, password: user.password } });
    expect((await login()).status).toBe(403);

    expect(await users('enable', email)).toBe(`Enabled ${email}: it can sign in again.`);
    expect((await login()).status).toBe(200);

    expect(await users('delete', email)).toBe(`Deleted ${email} and everything it owned.`);
    expect((await login()).status).toBe(401);
    expect(await users('list')).not.toContain(email);
    await expect(users('disable', email)).rejects.toThrow(`No account with the email ${email}`);
  });

  it('promotes an account to operator and demotes it again (the Admin page follows)', async () => {
    const email = 'chosen@example.com';
    const line = await users('invite', email);
    const invite = new URL(/https:\S+/.exec(line)![0]).searchParams.get('invite')!;
    const user = await registerUser(server, { email, invite });
    const admin = () => server.request('/api/admin/overview', { token: user.token });
    expect((await admin()).status).toBe(404);
    expect(await users('promote', email)).toBe(`${email} is an operator.`);
    expect((await admin()).status).toBe(200);
    expect(await users('demote', email)).toBe(`${email} is an ordinary user.`);
    expect((await admin()).status).toBe(404);
    await expect(users('promote', 'nobody@example.com')).rejects.toThrow(
      'No account with the email nobody@example.com',
    );
  });

  it('explains its usage for a missing or unknown command or address', async () => {
    for (const argv of [[], ['crown', 'a@example.com'], ['list', 'extra'], ['disable']]) {
      await expect(users(...argv), argv.join(' ')).rejects.toThrow(USERS_USAGE);
    }
    await expect(users('disable', 'not-an-email')).rejects.toThrow(
      'disable: a valid email address is required',
    );
  });

  it('links to the port the server listens on when PUBLIC_URL is unset, unless given PORT', async () => {
    recordServerPort(server.dataDir, 8091);
    const { PUBLIC_URL: _, ...local } = env;
    const recorded = await runUsersCli(['invite', 'port@example.com'], local);
    expect(recorded).toMatch(/\nhttp:\/\/localhost:8091\/assistant\/register\?invite=/);
    const given = await runUsersCli(['invite', 'port2@example.com'], { ...local, PORT: '9000' });
    expect(given).toMatch(/\nhttp:\/\/localhost:9000\/assistant\/register\?invite=/);
    // PUBLIC_URL, when set, is the address people use (behind a proxy): it wins.
    expect(await users('invite', 'port3@example.com')).toMatch(
      /\nhttps:\/\/inkwell\.example\.com\//,
    );
  });
});

describe('the operator commands answer help and misuse', () => {
  const env = { DATA_DIR: '/nonexistent/never-opened' };

  it('print their usage with exit 0 for --help, -h, help and nothing at all', async () => {
    for (const argv of [['--help'], ['-h'], ['help'], [], ['invite', '--help']]) {
      expect(await usersCli(argv, env), argv.join(' ')).toEqual({ text: USERS_USAGE, code: 0 });
      expect(await alertCli(argv, env), argv.join(' ')).toEqual({ text: ALERT_USAGE, code: 0 });
    }
  });

  it('print what is wrong and the usage with exit 2 on misuse', async () => {
    const cases: [typeof usersCli, string[], RegExp, string][] = [
      [usersCli, ['crown', 'a@example.com'], /^Usage/, USERS_USAGE],
      [usersCli, ['list', '--bogus'], /Unknown option '--bogus'/, USERS_USAGE],
      [usersCli, ['disable', 'nope'], /^disable: a valid email address is required/, USERS_USAGE],
      [alertCli, ['--severity', 'warning'], /^--message is required/, ALERT_USAGE],
      [alertCli, ['--message', 'x', '--severity', 'loud'], /^--severity must be one/, ALERT_USAGE],
      [alertCli, ['--loud'], /Unknown option '--loud'/, ALERT_USAGE],
      [alertCli, ['clear'], /^Unexpected argument 'clear'/, ALERT_USAGE],
    ];
    for (const [cli, argv, problem, usage] of cases) {
      const outcome = await cli(argv, env);
      expect(outcome.code, argv.join(' ')).toBe(2);
      expect(outcome.text).toMatch(problem);
      expect(outcome.text.endsWith(usage)).toBe(true);
    }
  });
});

// The script's wiring, once (npm itself takes seconds to start); the commands run on both dialects.
describe('npm run users from the repository root', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('lists the accounts of the database the settings name', async () => {
    const user = await registerUser(server);
    const { stdout } = await promisify(execFile)(
      'npm',
      ['run', '--silent', 'users', '--', 'list'],
      {
        cwd: repoRoot,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          DATA_DIR: server.dataDir,
        },
      },
    );
    expect(stdout).toMatch(/^ID +EMAIL/m);
    expect(stdout).toMatch(
      new RegExp(`^\\d+ +${user.email.replace(/\./g, '\\.')} +Ada Lovelace +operator `, 'm'),
    );
  });

  it('passes --help through npm: usage, exit 0 and no npm error; misuse exits 2', async () => {
    const npm = (...argv: string[]) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        execFile(
          'npm',
          ['run', ...argv],
          {
            cwd: repoRoot,
            env: {
              PATH: process.env.PATH ?? '',
              HOME: process.env.HOME ?? '',
              DATA_DIR: server.dataDir,
            },
          },
          (err, stdout, stderr) =>
            resolve({ code: err ? (err.code as number) : 0, stdout, stderr }),
        );
      });
    // Three npm processes, each starting a TypeScript loader: at once, not one after the other
    // (one after the other they took 30 s on a busy 2-core machine).
    const [help, alertHelp, misuse] = await Promise.all([
      npm('users', '--', '--help'),
      npm('alert', '--', '--help'),
      npm('users', '--', 'crown'),
    ]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(USERS_USAGE);
    expect(help.stderr).not.toMatch(/npm error/);
    expect(alertHelp.code).toBe(0);
    expect(alertHelp.stdout).toContain(ALERT_USAGE);
    expect(misuse.code).toBe(2);
    expect(misuse.stderr).toContain(USERS_USAGE);
  });
});
