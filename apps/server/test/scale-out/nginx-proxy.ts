import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repoRoot } from './node-process';

/** The nginx binary (Debian's package puts it in /usr/sbin, often not on a user's PATH). */
export function findNginx(): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/local/sbin'];
  return dirs.map((d) => path.join(d, 'nginx')).find((p) => existsSync(p));
}

/**
 * The shipped `deploy/nginx.conf`, unchanged but for where it listens and where its upstream
 * servers are: the compose names (app1:8080, …) become these loopback addresses.
 */
export function siteConfig(listen: string, upstreams: string[]): string {
  const shipped = readFileSync(path.join(repoRoot, 'deploy/nginx.conf'), 'utf8');
  const servers = upstreams.map((u) => `  server ${u};`).join('\n');
  const replaced = shipped
    .replace(/^(upstream inkwell \{\n)(?:\s*server [^\n]+\n)+/m, `$1${servers}\n`)
    .replace(/listen 80;/, `listen ${listen};`);
  if (!replaced.includes(servers) || !replaced.includes(`listen ${listen};`))
    throw new Error('deploy/nginx.conf no longer has the upstream or listen lines this expects');
  return replaced;
}

/** Resolves once something accepts connections on the port. */
async function accepting(port: number, exited: Promise<unknown>, output: () => string) {
  let done = false;
  void exited.then(() => (done = true));
  for (;;) {
    if (done) throw new Error(`nginx exited:\n${output()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Debian's nginx with the shipped site configuration in front of `upstreams`, in the foreground,
 * with every file of its own (pid, logs, temp folders) in a temp folder.
 */
export async function startNginx(binary: string, port: number, upstreams: string[]) {
  const dir = mkdtempSync(path.join(tmpdir(), 'inkwell-nginx-'));
  chmodSync(dir, 0o755); // nginx's workers run as an unprivileged user when started as root
  writeFileSync(path.join(dir, 'inkwell.conf'), siteConfig(`127.0.0.1:${port}`, upstreams));
  writeFileSync(
    path.join(dir, 'nginx.conf'),
    [
      'worker_processes 1;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log warn;`,
      'events { worker_connections 1024; }',
      'http {',
      '  access_log off;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
        (t) => `  ${t}_temp_path ${dir}/${t}_temp;`,
      ),
      `  include ${dir}/inkwell.conf;`,
      '}',
    ].join('\n'),
  );
  const child = spawn(
    binary,
    ['-p', dir, '-c', `${dir}/nginx.conf`, '-e', `${dir}/error.log`, '-g', 'daemon off;'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const output = () => {
    const log = existsSync(`${dir}/error.log`) ? readFileSync(`${dir}/error.log`, 'utf8') : '';
    return `${err}\n${log.slice(-4000)}`;
  };
  await accepting(port, exited, output);
  return {
    url: `http://127.0.0.1:${port}`,
    /** nginx's error log: upstream failures and retries are logged there. */
    errorLog: () => readFileSync(`${dir}/error.log`, 'utf8'),
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
