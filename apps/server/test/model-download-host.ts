import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Serves a GGUF file as the embedded model's first-start download. By default it stops half-way
 * until the test lets it finish: the product shows "downloading" with its percentage meanwhile.
 * `stop()` and `restart()` make it a host that is down, then back (on the same address).
 */
export interface ModelDownloadHost {
  /** Set MODEL to this (MODEL_DOWNLOAD=auto). */
  url: string;
  finish(): void;
  /** Stops listening: downloads fail with a refused connection. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function startModelDownloadHost(
  bytes: Buffer,
  opts: { holdHalfWay?: boolean; down?: boolean } = {},
): Promise<ModelDownloadHost> {
  let finish!: () => void;
  const finished = new Promise<void>((r) => (finish = r));
  if (opts.holdHalfWay === false) finish();
  const server: Server = createServer((req, res) => {
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': bytes.length,
    });
    if (req.method === 'HEAD') return res.end();
    const half = Math.floor(bytes.length / 2);
    res.write(bytes.subarray(0, half));
    void finished.then(() => res.end(bytes.subarray(half)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const stop = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      if (!server.listening) return r();
      server.close(() => r());
    });
  if (opts.down) await stop();
  return {
    url: `http://127.0.0.1:${port}/models/tiny.gguf`,
    finish,
    stop,
    restart: () => new Promise<void>((r) => server.listen(port, '127.0.0.1', r)),
    close: stop,
  };
}
