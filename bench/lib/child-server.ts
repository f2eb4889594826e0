import { spawn } from 'node:child_process';

/**
 * Starts a bench server in its own process (so it has a core's worth of event loop to itself, as
 * the product does) and resolves once it prints `listening on <port>`.
 */
export async function startChildServer(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = out.match(/listening on (\d+)/);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`bench server exited ${code}: ${out}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}
