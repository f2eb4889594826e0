import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cleanPage, defectsPage, lowContrastPage, VALID_ROBOTS } from './pages';

/**
 * A node:http server of test pages, on a loopback address only. `robots` can be changed per test;
 * `hits` records every path requested, so tests can prove a refused address was never contacted.
 */
export interface FixtureServer {
  origin: string;
  port: number;
  hits: string[];
  robots: { status: number; body: string };
  close(): Promise<void>;
}

const html = (
  res: ServerResponse,
  body: string,
  status = 200,
  headers: Record<string, string> = {},
) => {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
  res.end(body);
};

export async function startFixtureServer(host = '127.0.0.1'): Promise<FixtureServer> {
  const hits: string[] = [];
  const robots = { status: 200, body: VALID_ROBOTS };
  let origin = '';
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    hits.push(url.pathname);
    const p = url.pathname;
    if (p === '/clean') return html(res, cleanPage(origin));
    if (p === '/defects') return html(res, defectsPage());
    if (p === '/low-contrast') return html(res, lowContrastPage());
    if (p === '/style.css') {
      res.writeHead(200, { 'content-type': 'text/css' });
      return res.end('.faint { color: #bbb; background: #fff; }');
    }
    if (p === '/noindex-header')
      return html(res, cleanPage(origin), 200, { 'x-robots-tag': 'noindex' });
    if (p === '/googlebot-only-header') {
      return html(res, cleanPage(origin), 200, { 'x-robots-tag': 'Googlebot: noindex' });
    }
    if (p === '/missing')
      return html(res, '<!doctype html><title>Not found</title><h1>Not found</h1>', 404);
    if (p === '/robots.txt') {
      res.writeHead(robots.status, { 'content-type': 'text/plain' });
      return res.end(robots.body);
    }
    if (p === '/json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('{}');
    }
    if (p === '/huge') {
      // No content-length: the cap must hold while streaming.
      res.writeHead(200, { 'content-type': 'text/html' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      let sent = 0;
      const pump = () => {
        while (sent < 6 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('error', () => {});
      return pump();
    }
    if (p === '/slow') return void setTimeout(() => html(res, cleanPage(origin)), 5_000).unref();
    if (p === '/redirect') return redirect(res, url.searchParams.get('to') ?? '/clean');
    const chain = /^\/chain\/(\d+)$/.exec(p);
    if (chain) return redirect(res, `/chain/${Number(chain[1]) + 1}`);
    html(res, '<!doctype html><title>Not found</title>', 404);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  origin = `http://${host}:${port}`;
  return {
    origin,
    port,
    hits,
    robots,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function redirect(res: ServerResponse, to: string) {
  res.writeHead(302, { location: to });
  res.end();
}
