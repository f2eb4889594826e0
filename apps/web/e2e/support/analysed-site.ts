import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/** A page with known problems for the URL analyses: an image without alt text, no meta description, no lang. */
export const HARBOUR_PAGE = `<!doctype html>
<html><head><title>Harbour lights</title></head>
<body><main><h1>Harbour lights</h1>
<img src="lamp.png" width="10" height="10">
<p>The harbour has three lights.</p></main></body></html>`;

/**
 * A loopback site for the file's URL analyses (the product server allows 127.0.0.1 through
 * FETCH_ALLOW_HOSTS): `/harbour.html` is HARBOUR_PAGE, robots.txt allows everything, anything else
 * is 404. `url(path)` is valid once the file's tests run.
 */
export function useAnalysedSite(): { url(path: string): string } {
  let site: Server | undefined;
  let origin = '';
  beforeAll(async () => {
    site = createServer((req, res) => {
      if (req.url === '/robots.txt') {
        res.writeHead(200, { 'Content-Type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
      } else if (req.url === '/harbour.html') {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(HARBOUR_PAGE);
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((r) => site!.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => site?.close(r));
  });
  return { url: (path) => `${origin}${path}` };
}
