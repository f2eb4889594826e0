import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartCache } from '../../jobs';
import type { FetchedResource } from '../fetch/safe-fetch';
import { noModel } from '../test-fixtures/no-model';
import { analyseSite, type SiteProgress } from './site-analysis.service';
import { PAGE_AUDIT_FAILED, SitePages } from './site-pages';
import { SITE_PAGES, startSiteServer, type SiteServer } from './test-fixtures/site-server';

/**
 * The site audit's fetches and parts (issue 30 point 4), against the loopback site server, which
 * counts the requests of each path: each page fetched once, robots.txt once, both audits from that
 * one page, a page's failure kept to its row, finished pages kept as parts for a resumed job.
 */
let site: SiteServer;
beforeAll(async () => {
  // The "other origin" the site links to: nothing listens there, and nothing may ask it.
  site = await startSiteServer('http://127.0.0.1:9');
});
afterAll(() => site?.close());

const deps = { ai: noModel, allowHosts: ['127.0.0.1'] };
const stages = () => {
  const seen: string[] = [];
  const progress: SiteProgress = { stage: (name) => void seen.push(name), partDone: () => {} };
  return { seen, progress };
};
const count = (from: number, path: string) =>
  site.hits.slice(from).filter((h) => h === path).length;

/** A job's parts as the job runner keeps them, in memory. */
function memoryParts(): PartCache & { keys(): string[] } {
  const parts = new Map<string, string>();
  return {
    get: async (key) => parts.get(key),
    put: async (key, output) => void (parts.has(key) || parts.set(key, output)),
    keys: () => [...parts.keys()],
  };
}

describe('site audit', () => {
  it('fetches each page once and robots.txt once, and audits it both ways', async () => {
    const from = site.hits.length;
    const { seen, progress } = stages();
    const result = await analyseSite(deps, { url: `${site.origin}/`, maxPages: 10 }, progress);
    expect(result.pages.map((p) => new URL(p.url).pathname)).toEqual(SITE_PAGES);
    for (const path of SITE_PAGES) expect(count(from, path), path).toBe(1);
    expect(count(from, '/robots.txt')).toBe(1);
    for (const page of result.pages) {
      expect(page.error).toBeUndefined();
      expect(page.accessibility_score).toEqual(expect.any(Number));
      expect(page.seo_score).toEqual(expect.any(Number));
    }
    // Both audits' findings reach the grouped issues: axe's image-alt and SEO's meta description.
    expect(result.issues.map((i) => `${i.audit}:${i.id}`)).toEqual(
      expect.arrayContaining(['accessibility:image-alt', 'seo:meta-description']),
    );
    expect(new Set(seen)).toEqual(new Set(['crawling', 'auditing', 'writing insights']));
  }, 60_000);

  it("records a page's failure against that page and goes on", async () => {
    const pages = new SitePages(deps);
    const robots = { status: 404, content: '' };
    const html = (title: string) =>
      Buffer.from(`<!doctype html><html lang="en"><head><title>${title}</title></head></html>`);
    const good: FetchedResource = {
      url: `${site.origin}/good`,
      status: 200,
      headers: {},
      rawHeaders: [],
      contentType: 'text/html',
      body: html('Good'),
      redirects: [],
    };
    // Headers the SEO audits cannot read: they throw a TypeError, not an HTTP error.
    const broken = { ...good, url: `${site.origin}/broken`, body: html('Broken') };
    (broken as { rawHeaders: unknown }).rawHeaders = null;
    for (const fetched of [broken, good])
      await pages.add({ url: fetched.url, requested: fetched.url, links: [], fetched, robots });
    expect(pages.rows[0]).toMatchObject({
      url: broken.url,
      seo_score: null,
      error: PAGE_AUDIT_FAILED,
    });
    expect(pages.rows[0]!.accessibility_score).toEqual(expect.any(Number));
    expect(pages.rows[1]).toMatchObject({ url: good.url, seo_score: expect.any(Number) });
    expect(pages.rows[1]!.error).toBeUndefined();
  });

  it('keeps finished pages as parts: a resumed job neither fetches nor audits them again', async () => {
    const parts = memoryParts();
    const input = { url: `${site.origin}/`, maxPages: 10 };
    // The first run is stopped while it fetches /contact (the fourth page).
    const stop = new AbortController();
    const hold = site.hold('/contact', count(0, '/contact') + 1);
    const from = site.hits.length;
    const first = analyseSite({ ...deps, signal: stop.signal, parts }, input, stages().progress);
    await hold.reached;
    stop.abort(new Error('taken over'));
    await expect(first).rejects.toThrow(); // safeFetch's abort error
    hold.release();
    expect(parts.keys().map((k) => new URL(k.slice('page:'.length)).pathname)).toEqual([
      '/',
      '/about',
      '/blog',
    ]);

    const resumedFrom = site.hits.length;
    const resumed = await analyseSite({ ...deps, parts }, input, stages().progress);
    expect(resumed.pages.map((p) => new URL(p.url).pathname)).toEqual(SITE_PAGES);
    for (const path of ['/', '/about', '/blog']) expect(count(resumedFrom, path), path).toBe(0);
    for (const path of ['/contact', '/blog/post-1']) expect(count(resumedFrom, path), path).toBe(1);
    expect(count(from, '/robots.txt')).toBe(2); // once a run

    // The same answer as a run that was never stopped.
    const whole = await analyseSite(deps, input, stages().progress);
    expect(resumed.pages).toEqual(whole.pages);
    expect(resumed.issues).toEqual(whole.issues);
  }, 60_000);
});
