import { spawn } from 'node:child_process';

/** Reads each request body to the end, stores nothing, answers 201. */
const source = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end('{}'));
});
server.listen(0, '127.0.0.1', () => console.log('listening on ' + server.address().port));
`;

/**
 * A server in its own process that discards what it receives: an upload to it costs the client,
 * the loopback and the reading of the body and nothing else, the floor under any real upload.
 */
export async function startDiscardServer() {
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = out.match(/listening on (\d+)/);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`discard server exited ${code}: ${out}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}
