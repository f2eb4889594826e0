import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../..');
export const BASE_PATH = '/assistant/';

export interface ProductServer {
  /** Origin + base path, e.g. http://127.0.0.1:41234/assistant/ */
  url: string;
  origin: string;
  dataDir: string;
  /** Mails written to DATA_DIR/outbox (no SMTP configured), oldest first. */
  outbox(): string[];
  stop(): Promise<void>;
}

/**
 * Starts the product the way `npm start` does (built web app, `src/server.ts`), on a free loopback
 * port with a fresh DATA_DIR, under a non-root base path.
 */
export async function startProductServer(env: Record<string, string> = {}): Promise<ProductServer> {
  const dist = path.join(repoRoot, 'apps/web/dist/index.html');
  if (!existsSync(dist)) throw new Error(`web app not built (${dist}); run "npm run build" first`);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'inkwell-e2e-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: path.join(repoRoot, 'apps/server'),
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      BASE_PATH,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      MODEL_DOWNLOAD: 'off',
      AUTH_RATE_LIMIT: '1000',
      // Password hashes at test cost: the production cost is checked by the server's tests.
      PASSWORD_HASH_MEMORY_KIB: '1024',
      PASSWORD_HASH_PASSES: '1',
      FETCH_ALLOW_HOSTS: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const origin = await waitForListening(child);
  return {
    url: `${origin}${BASE_PATH}`,
    origin,
    dataDir,
    outbox() {
      const dir = path.join(dataDir, 'outbox');
      if (!existsSync(dir)) return [];
      return readdirSync(dir)
        .sort()
        .map((f) => readFileSync(path.join(dir, f), 'utf8'));
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function waitForListening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    // Generous: on a machine shared by several test runs, starting (tsx compiling) can take long.
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 75_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = output.match(/running at (http:\/\/[^/\s]+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!.replace('localhost', '127.0.0.1'));
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}
