import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small site on loopback for the crawler's tests: robots.txt disallows /private, sitemap.xml
 * lists pages (one disallowed, one on another origin), pages link to each other, to /private and
 * to `external` (another origin that must never be contacted). Every page but /about has an image
 * without alt text and no meta description, so those issues repeat. `hits` records each path
 * asked; `hold` makes the nth request of a path wait until released (tests wait on states).
 */
export interface SiteServer {
  origin: string;
  hits: string[];
  hold(path: string, nth: number): { reached: Promise<void>; release(): void };
  close(): Promise<void>;
}

const page = (title: string, links: string[], opts: { image?: boolean } = {}) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>` +
  `<meta name="viewport" content="width=device-width, initial-scale=1"></head><body><main>` +
  `<h1>${title}</h1>` +
  (opts.image === false ? '' : '<img src="/photo.png">') +
  `<ul>${links.map((href, i) => `<li><a href="${href}">Link ${i + 1} of ${title}</a></li>`).join('')}</ul>` +
  `</main></body></html>`;

export const SITE_PAGES = ['/', '/about', '/blog', '/contact', '/blog/post-1'];

export async function startSiteServer(external: string, extraPages = 0): Promise<SiteServer> {
  const hits: string[] = [];
  const holds = new Map<string, { release: Promise<void>; reached: () => void }>();
  let origin = '';
  const routes: Record<string, () => string> = {
    '/': () =>
      page('Home', [
        '/about',
        '/blog#top',
        '/private/hidden',
        `${external}/elsewhere`,
        'mailto:a@b.c',
      ]),
    '/about': () => page('About', ['/', '/contact'], { image: false }),
    '/blog': () => page('Blog', ['/blog/post-1', `${external}/feed`]),
    '/contact': () => page('Contact', ['/']),
    '/blog/post-1': () =>
      page('Post one', ['/blog', ...Array.from({ length: extraPages }, (_, i) => `/extra/${i}`)]),
  };
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', origin).pathname;
    hits.push(path);
    const answer = () => {
      if (path === '/robots.txt') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end('User-agent: *\nDisallow: /private\n');
      }
      if (path === '/sitemap.xml') {
        res.writeHead(200, { 'content-type': 'application/xml' });
        const locs = ['/', '/about', '/private/secret', `${external}/other-site`];
        return res.end(
          '<?xml version="1.0" encoding="UTF-8"?>' +
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
            locs
              .map((l) => `<url><loc>${l.startsWith('/') ? origin + l : l}</loc></url>`)
              .join('') +
            '</urlset>',
        );
      }
      const extra = /^\/extra\/(\d+)$/.exec(path);
      const body = routes[path]?.() ?? (extra ? page(`Extra ${extra[1]}`, ['/']) : undefined);
      if (!body) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        return res.end('not found');
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(body);
    };
    const hold = holds.get(`${path}#${hits.filter((h) => h === path).length}`);
    if (hold) {
      hold.reached();
      void hold.release.then(answer);
    } else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    hits,
    hold(path, nth) {
      let release!: () => void;
      let reached!: () => void;
      const released = new Promise<void>((r) => (release = r));
      const wasReached = new Promise<void>((r) => (reached = r));
      holds.set(`${path}#${nth}`, { release: released, reached });
      return { reached: wasReached, release };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
