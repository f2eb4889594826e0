import { createServer as createHttpServer, request, type Server } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from './cluster';
import { findNginx, startNginx } from './nginx-proxy';

/**
 * The shipped deploy/nginx.conf in front of two stand-in upstreams: one that drops every
 * connection once it has read a request (a server dying mid-request), one that answers. What is
 * checked is nginx's configuration, so the upstreams need not be the product.
 */
const nginx = findNginx();
const title = `deploy/nginx.conf${nginx ? '' : ' (skipped: nginx is not installed)'}`;

const listening = (server: Server | ReturnType<typeof createTcpServer>) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      resolve(`127.0.0.1:${(server.address() as { port: number }).port}`);
    }),
  );

describe.skipIf(!nginx)(title, () => {
  const stops: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    await Promise.all(stops.splice(0).map((stop) => stop()));
  });

  /** nginx over [dropping, answering]; the answering one can hold a stream open. */
  async function setUp() {
    const dropped: string[] = [];
    const dropping = createTcpServer((socket) => {
      socket.once('data', (head) => {
        dropped.push(head.toString().split(' ')[0]!);
        socket.resetAndDestroy();
      });
    });
    const answered: string[] = [];
    let releaseStream = () => {};
    const streamReleased = new Promise<void>((r) => (releaseStream = r));
    const answering = createHttpServer((req, res) => {
      answered.push(`${req.method} ${req.headers['x-forwarded-for']}`);
      req.resume();
      if (req.url === '/events') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: first\n\n');
        void streamReleased.then(() => res.end('data: last\n\n'));
        return;
      }
      req.on('end', () => res.end('answered'));
    });
    const upstreams = [await listening(dropping), await listening(answering)];
    const proxy = await startNginx(nginx!, await freePort(), upstreams);
    stops.push(
      () => proxy.stop(),
      () => new Promise((r) => dropping.close(r)),
      () => new Promise((r) => answering.close(r)),
    );
    return { proxy, dropped, answered, releaseStream };
  }

  const send = (url: string, method: string, headers: Record<string, string> = {}) =>
    new Promise<number>((resolve, reject) => {
      const req = request(url, { method, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end(method === 'POST' ? 'a body' : undefined);
    });

  it('passes a GET that a dying server dropped on to the other server', async () => {
    const { proxy, dropped, answered } = await setUp();
    const statuses: number[] = [];
    while (dropped.length === 0) statuses.push(await send(`${proxy.url}/api/my_files`, 'GET'));
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(answered).toHaveLength(statuses.length);
  });

  it('never sends a POST twice: one a server dropped fails with 502', async () => {
    const { proxy, dropped, answered } = await setUp();
    const statuses: number[] = [];
    while (dropped.length === 0) statuses.push(await send(`${proxy.url}/api/upload_file`, 'POST'));
    expect(dropped).toEqual(['POST']);
    expect(statuses.at(-1)).toBe(502);
    expect(answered).toHaveLength(statuses.length - 1);
  });

  it('replaces the X-Forwarded-For a client sends with the address it connected from', async () => {
    const { proxy, answered } = await setUp();
    // Past the dropping server (nginx then leaves it out for a while), to the answering one.
    while (answered.length === 0)
      await send(`${proxy.url}/`, 'GET', { 'x-forwarded-for': '1.2.3.4' });
    expect(answered).toEqual(['GET 127.0.0.1']);
  });

  it('streams events to the client as they are written', async () => {
    const { proxy, releaseStream } = await setUp();
    const events = await new Promise<string>((resolve, reject) => {
      request(`${proxy.url}/events`, (res) => {
        let seen = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          seen += chunk;
          // The first event arrives while the server still holds the stream open.
          if (seen === 'data: first\n\n') releaseStream();
        });
        res.on('end', () => resolve(seen));
      })
        .on('error', reject)
        .end();
    });
    expect(events).toBe('data: first\n\ndata: last\n\n');
  });
});
