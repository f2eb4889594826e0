import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP proxy in front of an S3 test server (s3-test-server.ts) that can make its writes fail
 * the way S3-compatible stores fail: an S3 error document with its status (MinIO's 507
 * XMinioStorageFull, a 500 InternalError, a 403 AccessDenied...). Everything else is passed
 * through unchanged, headers included, so the request signatures still hold.
 */
export interface S3Fault {
  status: number;
  code: string;
  message: string;
  /** Which writes fail (default: every PUT and POST). */
  match?: (req: IncomingMessage) => boolean;
}

export interface S3FaultProxy {
  url: string;
  /** From now on, writes fail with `fault`; undefined: they pass again. */
  failWrites(fault: S3Fault | undefined): void;
  /** Requests answered with the fault so far. */
  failed: number;
  close(): Promise<void>;
}

const isWrite = (req: IncomingMessage) => req.method === 'PUT' || req.method === 'POST';

export async function startS3FaultProxy(target: string): Promise<S3FaultProxy> {
  const upstream = new URL(target);
  let fault: S3Fault | undefined;
  const proxy: S3FaultProxy = {
    url: '',
    failed: 0,
    failWrites: (f) => {
      fault = f;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((req, res) => {
    if (fault && (fault.match ?? isWrite)(req)) {
      const { status, code, message } = fault;
      proxy.failed++;
      req.resume();
      req.on('end', () => {
        res.writeHead(status, { 'content-type': 'application/xml' });
        res.end(
          `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code>` +
            `<Message>${message}</Message><Resource>${req.url}</Resource>` +
            `<RequestId>fault-${proxy.failed}</RequestId></Error>`,
        );
      });
      return;
    }
    const out = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
