// Site analysis (issue 22): POST /api/site-analysis against the running product on a 20-page
// local site (sitemap.xml with half the pages, the rest reached by links, robots.txt disallowing
// /private, links to another origin that must stay untouched). Reports the crawl-and-audit time,
// pages audited, issues grouped, and the time per page, in jsdom mode and, where Chromium is
// installed, in Chromium mode. No model: the insights' one call is not part of the time.
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { machineLine, result } from './lib/machine';
import { startServerProcess } from './lib/product-server';

const PAGES = 20;
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Page i links to the next two; every third page lacks alt text, every page a description. */
function page(i: number, external: string) {
  const links = [i + 1, i + 2].filter((n) => n < PAGES).map((n) => `/p/${n}`);
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page ${i}</title>` +
    '<meta name="viewport" content="width=device-width, initial-scale=1"></head><body><main>' +
    `<h1>Page ${i}</h1><p>${'Lighthouses guide ships along the coast. '.repeat(20)}</p>` +
    (i % 3 === 0 ? '<img src="/lamp.png">' : '<img src="/lamp.png" alt="A lamp">') +
    `<ul>${links.map((l) => `<li><a href="${l}">Next: ${l}</a></li>`).join('')}` +
    `<li><a href="/private/${i}">Private</a></li><li><a href="${external}/x">Elsewhere</a></li>` +
    '</ul></main></body></html>'
  );
}

async function startSite() {
  let externalHits = 0;
  const external = createServer((_req, res) => {
    externalHits += 1;
    res.end('no');
  });
  await new Promise<void>((r) => external.listen(0, '127.0.0.1', r));
  const externalOrigin = `http://127.0.0.1:${(external.address() as AddressInfo).port}`;
  let origin = '';
  const site = createServer((req, res) => {
    const path = new URL(req.url ?? '/', origin).pathname;
    const n = /^\/p\/(\d+)$/.exec(path)?.[1];
    if (path === '/robots.txt') return res.end('User-agent: *\nDisallow: /private\n');
    if (path === '/sitemap.xml') {
      res.writeHead(200, { 'content-type': 'application/xml' });
      const locs = Array.from(
        { length: PAGES / 2 },
        (_, i) => `<url><loc>${origin}/p/${i * 2}</loc></url>`,
      );
      return res.end(
        `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.join('')}</urlset>`,
      );
    }
    if (n !== undefined && Number(n) < PAGES) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(page(Number(n), externalOrigin));
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  return {
    start: `${origin}/p/0`,
    externalHits: () => externalHits,
    close: async () => {
      await new Promise((r) => site.close(r));
      await new Promise((r) => external.close(r));
    },
  };
}

interface SiteAnswer {
  site_analysis: { pages: unknown[]; issues: { pages_affected: number }[]; disallowed: string[] };
}

async function run(mode: 'jsdom' | 'chromium') {
  const site = await startSite();
  const server = await startServerProcess({
    FETCH_ALLOW_HOSTS: '127.0.0.1',
    ...(mode === 'chromium' ? { CHROMIUM_PATH: CHROMIUM } : {}),
  });
  try {
    const token = await server.register();
    const started = performance.now();
    const res = await fetch(`${server.url}/api/site-analysis`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: site.start, max_pages: PAGES }),
    });
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`site analysis: ${res.status} ${await res.text()}`);
    const { site_analysis: a } = (await res.json()) as SiteAnswer;
    const repeated = a.issues.filter((i) => i.pages_affected > 1).length;
    console.log(
      `${mode}: ${a.pages.length} pages in ${(ms / 1000).toFixed(1)} s ` +
        `(${(ms / a.pages.length).toFixed(0)} ms/page); ${a.issues.length} issues grouped, ` +
        `${repeated} on more than one page; ${a.disallowed.length} addresses disallowed by ` +
        `robots.txt; requests to the other origin: ${site.externalHits()}`,
    );
    result({
      name: `site analysis, ${mode}: time for ${PAGES} pages`,
      value: Math.round(ms / 100) / 10,
      unit: 's',
    });
    result({ name: `site analysis, ${mode}: pages audited`, value: a.pages.length, unit: 'pages' });
    result({
      name: `site analysis, ${mode}: issues grouped`,
      value: a.issues.length,
      unit: 'issues',
    });
  } finally {
    await server.stop();
    await site.close();
  }
}

console.log(machineLine());
await run('jsdom');
if (existsSync(CHROMIUM)) await run('chromium');
else console.log(`Chromium mode skipped: no ${CHROMIUM}`);
