import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH, startProductServer, type ProductServer } from './support/product-server';

/** One GET with raw bytes (fetch would decompress them and hide the encoding). */
function get(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, string>; body: Buffer }>(
    (resolve, reject) => {
      request(url, { headers }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers as Record<string, string>,
            body: Buffer.concat(parts),
          }),
        );
      })
        .on('error', reject)
        .end();
    },
  );
}

describe('what the product serves to browsers and crawlers (production build)', () => {
  let server: ProductServer;
  let mainBundle: string;
  beforeAll(async () => {
    server = await startProductServer({ PUBLIC_URL: 'https://inkwell.example.com' });
    const page = (await get(server.url)).body.toString();
    mainBundle = /<script type="module"[^>]*src="\.\/(assets\/index-[^"]+\.js)"/.exec(page)![1]!;
  });
  afterAll(() => server?.stop());

  it('sends the main bundle brotli- or gzip-compressed, as the browser accepts, else plain', async () => {
    const url = `${server.url}${mainBundle}`;
    const plain = await get(url, { 'accept-encoding': 'identity' });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(100_000);

    const br = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toContain('immutable');
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);

    const gz = await get(url, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);

    // The compressed copies are not files of their own.
    expect((await get(`${url}.br`)).status).toBe(404);
  });

  it('sends the page compressed too, with its base path', async () => {
    const page = await get(`${server.url}faq`, { 'accept-encoding': 'br' });
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(page.body).toString()).toContain(`<base href="${BASE_PATH}" />`);
  });

  it('answers robots.txt as text with the sitemap’s address, at the base path and the root', async () => {
    for (const url of [`${server.url}robots.txt`, `${server.origin}/robots.txt`]) {
      const robots = await get(url);
      expect(robots.status).toBe(200);
      expect(robots.headers['content-type']).toMatch(/^text\/plain/);
      const text = robots.body.toString();
      expect(text).toMatch(/^User-agent: \*$/m);
      expect(text).toContain(`Disallow: ${BASE_PATH}api/`);
      expect(text).toMatch(
        new RegExp(`^Sitemap: https://inkwell\\.example\\.com${BASE_PATH}sitemap\\.xml$`, 'm'),
      );
    }
  });

  it('lists the public pages in sitemap.xml, under PUBLIC_URL and the base path', async () => {
    const sitemap = await get(`${server.url}sitemap.xml`);
    expect(sitemap.status).toBe(200);
    expect(sitemap.headers['content-type']).toMatch(/xml/);
    const locs = [...sitemap.body.toString().matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    const app = `https://inkwell.example.com${BASE_PATH}`;
    expect(locs).toEqual(
      ['', 'faq', 'about', 'login', 'register', 'privacy.html', 'terms.html'].map(
        (p) => `${app}${p}`,
      ),
    );
    expect(locs.some((l) => l?.includes('account'))).toBe(false);
  });
});
