import { Agent, request } from 'node:http';

export interface HttpAnswer {
  status: number;
  body: Buffer;
  ms: number;
}

/**
 * One client of the product, connecting from its own loopback address (any of 127.0.0.0/8), so a
 * proxy in front sees as many client addresses as there are clients. Keeps its connections open
 * as a browser does. A failed connection answers status 0.
 */
export class HttpClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 4 });

  constructor(readonly address: string) {}

  send(
    url: string,
    opts: { method?: string; headers?: Record<string, string>; body?: Buffer } = {},
  ): Promise<HttpAnswer> {
    const started = performance.now();
    return new Promise((resolve) => {
      const failed = () =>
        resolve({ status: 0, body: Buffer.alloc(0), ms: performance.now() - started });
      const req = request(
        url,
        {
          method: opts.method ?? 'GET',
          headers: {
            ...opts.headers,
            ...(opts.body ? { 'content-length': String(opts.body.length) } : {}),
          },
          agent: this.agent,
          localAddress: this.address,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks),
              ms: performance.now() - started,
            }),
          );
          res.on('error', failed);
        },
      );
      req.on('error', failed);
      req.end(opts.body);
    });
  }

  json(url: string, method: string, value: unknown, headers: Record<string, string> = {}) {
    return this.send(url, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body: Buffer.from(JSON.stringify(value)),
    });
  }

  close() {
    this.agent.destroy();
  }
}

/** A form as a browser sends it (multipart/form-data), encoded once. */
export async function multipartFile(name: string, bytes: Uint8Array) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const encoded = new Response(form);
  return {
    body: Buffer.from(await encoded.arrayBuffer()),
    contentType: encoded.headers.get('content-type')!,
  };
}
