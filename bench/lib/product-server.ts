import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

/**
 * The real server in its own process (so its memory can be read), on a free loopback port. With
 * `inspect`, its inspector listens on a free loopback port too (see inspector.ts).
 */
export async function startServerProcess(
  env: Record<string, string> = {},
  {
    inspect = false,
    productDir = repoRoot,
  }: {
    inspect?: boolean;
    /** Another checkout (with its node_modules) whose server runs, e.g. main for today's figure. */
    productDir?: string;
  } = {},
) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'inkwell-bench-'));
  const nodeArgs = inspect ? ['--inspect=127.0.0.1:0'] : [];
  const child: ChildProcess = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', 'src/server.ts'],
    {
      cwd: path.join(productDir, 'apps/server'),
      env: {
        PATH: process.env.PATH ?? '',
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        MODEL_DOWNLOAD: 'off',
        AUTH_RATE_LIMIT: '100000',
        ...env,
      },
      stdio: ['ignore', 'pipe', inspect ? 'pipe' : 'inherit'],
    },
  );
  // The inspector announces its address on stderr, which is passed on as it would be inherited.
  child.stderr?.pipe(process.stderr);
  const inspectorUrl = !inspect
    ? undefined
    : new Promise<string>((resolve) => {
        let seen = '';
        const watch = (c: Buffer) => {
          seen += c.toString();
          const m = seen.match(/Debugger listening on (ws:\/\/\S+)/);
          if (!m) return;
          child.stderr?.off('data', watch);
          resolve(m[1]!);
        };
        child.stderr?.on('data', watch);
      });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = out.match(/running at (http:\/\/[^/\s]+)/);
      if (m) resolve(m[1]!.replace('localhost', '127.0.0.1'));
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
  return {
    url,
    pid: child.pid!,
    /** The inspector's WebSocket address, when started with `inspect`. */
    inspectorUrl: inspectorUrl && (await inspectorUrl),
    dataDir,
    async register(email = `bench-${Date.now()}@example.com`) {
      const res = await fetch(`${url}/api/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'bench password', first_name: 'Bench' }),
      });
      return ((await res.json()) as { access_token: string }).access_token;
    },
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
