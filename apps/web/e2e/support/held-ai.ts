import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback gate in front of the test model: chat completions wait here until the test opens
 * the gate, so a scenario can hold one person's call while another's queues behind it, without
 * depending on how long anything takes.
 */
export interface HeldAi {
  /** Base URL ending in /v1, for AI_BASE_URL. */
  url: string;
  /** Completions that arrived and wait at the gate. */
  held(): number;
  /** Lets every held and later completion through. */
  open(): void;
  close(): Promise<void>;
}

export async function startHeldAi(upstream: string): Promise<HeldAi> {
  const target = new URL(upstream);
  let isOpen = false;
  let waiting: (() => void)[] = [];
  const server: Server = createServer((req, res) => {
    const forward = () => {
      const up = request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      up.on('error', () => res.destroy());
      req.pipe(up);
    };
    if (isOpen || !req.url?.includes('/chat/completions')) forward();
    else waiting.push(forward);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    held: () => waiting.length,
    open() {
      isOpen = true;
      const all = waiting;
      waiting = [];
      for (const go of all) go();
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
