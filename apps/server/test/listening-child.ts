import { spawn } from 'node:child_process';

/**
 * Starts a Node process (a test or bench server) and resolves once it prints
 * `listening on <port>`, with its port and a way to stop it and wait for its end.
 */
export async function startListeningChild(
  args: string[],
  opts: { env?: Record<string, string>; name: string },
) {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = out.match(/listening on (\d+)/);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`${opts.name} exited ${code}: ${out}`)));
  });
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
