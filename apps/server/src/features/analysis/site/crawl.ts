import { HttpError } from '../../../lib/http-error';
import { parsePage } from '../fetch/page-document';
import { fetchRobotsTxt, robotsTextToObey } from '../fetch/fetch-robots-txt';
import { parseRobotsTxt, type RobotsRules } from '../fetch/robots-txt';
import { safeFetch, type FetchedResource } from '../fetch/safe-fetch';
import { parseSitemap } from './sitemap';

/**
 * Finds the pages of one site: same origin only, robots.txt obeyed, the sitemap's addresses
 * first, then links found in crawled pages, breadth first. Every request goes through safeFetch,
 * so the address policy (no private or loopback targets unless allowed) holds on every hop.
 */
export interface CrawlOptions {
  /** FETCH_ALLOW_HOSTS. */
  allowHosts: readonly string[];
  maxPages: number;
  signal?: AbortSignal;
  /** Called after each page found (an HTML page of the site answered 2xx). */
  onPage?(url: string, found: number): void;
}

export interface CrawlResult {
  /** The start address after redirects: the origin crawled is its origin. */
  startUrl: string;
  pages: string[];
  /** Same-origin addresses robots.txt disallowed: never fetched. */
  disallowed: string[];
}

/** Robots rules are read for our own user agent name, falling back to `*`. */
const ROBOTS_AGENT = 'InkwellPageAnalysis';
const SITEMAP_MAX_BYTES = 5 * 1024 * 1024;
/** Child sitemaps of a sitemap index read at most (a crawl is at most 50 pages anyway). */
const MAX_CHILD_SITEMAPS = 5;
/** Failed or non-HTML addresses tried at most per page wanted, so a broken site ends quickly. */
const ATTEMPTS_PER_PAGE = 3;

export async function crawlSite(start: string, opts: CrawlOptions): Promise<CrawlResult> {
  let origin = new URL(start).origin;
  let robots = await readRobots(origin, opts);
  const disallowed: string[] = [];
  let first: FetchedResource | undefined;
  if (robots.isAllowed(start, ROBOTS_AGENT)) {
    first = await fetchHtml(start, opts);
    const landed = new URL(first.url).origin;
    if (landed !== origin) {
      // example.com → www.example.com: the site is where the start address leads.
      origin = landed;
      robots = await readRobots(origin, opts);
      if (!robots.isAllowed(first.url, ROBOTS_AGENT)) {
        disallowed.push(first.url);
        first = undefined;
      }
    }
  } else disallowed.push(start);

  const seen = new Set<string>([start]);
  const queue: string[] = [];
  const enqueue = (raw: string, base: string) => {
    const url = sameOriginUrl(raw, base, origin);
    if (!url || seen.has(url)) return;
    seen.add(url);
    if (robots.isAllowed(url, ROBOTS_AGENT)) queue.push(url);
    else disallowed.push(url);
  };
  const pages: string[] = [];
  const pending: FetchedResource[] = [];
  const visit = (page: FetchedResource) => {
    seen.add(page.url);
    pages.push(page.url);
    pending.push(page);
    opts.onPage?.(page.url, pages.length);
  };
  if (first && isOk(first)) visit(first);
  for (const loc of await readSitemaps(origin, opts)) enqueue(loc, origin);

  let attempts = 0;
  for (;;) {
    // Links of the pages visited so far join the queue after what is already in it.
    for (const page of pending.splice(0)) for (const href of links(page)) enqueue(href, page.url);
    const next = queue.shift();
    if (next === undefined || pages.length >= opts.maxPages) break;
    if (++attempts > opts.maxPages * ATTEMPTS_PER_PAGE) break;
    const page = await fetchHtml(next, opts).catch(skipHttpError);
    if (!page || !isOk(page) || pages.includes(page.url)) continue;
    // A redirect off the site, or into a disallowed part of it, is not followed further.
    if (new URL(page.url).origin !== origin || !robots.isAllowed(page.url, ROBOTS_AGENT)) continue;
    visit(page);
  }
  return { startUrl: first?.url ?? start, pages, disallowed };
}

function fetchHtml(url: string, opts: CrawlOptions) {
  return safeFetch(url, { allowHosts: opts.allowHosts, accept: 'html', signal: opts.signal });
}

const isOk = (page: FetchedResource) => page.status >= 200 && page.status < 300;

/** A page that cannot be fetched is left out; a cancelled crawl still stops. */
function skipHttpError(err: unknown): undefined {
  if (err instanceof HttpError) return undefined;
  throw err;
}

/** The address without its fragment if it is http(s) on `origin`, else null. */
function sameOriginUrl(raw: string, base: string, origin: string): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim(), base);
  } catch {
    return null;
  }
  if (url.origin !== origin || (url.protocol !== 'http:' && url.protocol !== 'https:')) return null;
  url.hash = '';
  return url.href;
}

function links(page: FetchedResource): string[] {
  const dom = parsePage(page);
  try {
    const doc = dom.window.document;
    // A page that asks crawlers not to follow its links is respected.
    const meta = doc.querySelector('meta[name="robots" i]')?.getAttribute('content') ?? '';
    if (/nofollow|none/i.test(meta)) return [];
    return [...doc.querySelectorAll('a[href]')]
      .filter((a) => !/\bnofollow\b/i.test(a.getAttribute('rel') ?? ''))
      .map((a) => a.getAttribute('href')!);
  } finally {
    dom.window.close();
  }
}

async function readRobots(origin: string, opts: CrawlOptions): Promise<RobotsRules> {
  // No robots.txt (or an unreadable one): everything may be crawled, as crawlers do.
  return parseRobotsTxt(robotsTextToObey(await fetchRobotsTxt(origin, opts)));
}

/** Page addresses of /sitemap.xml, following a sitemap index one level on the same origin. */
async function readSitemaps(origin: string, opts: CrawlOptions): Promise<string[]> {
  const read = async (url: string) => {
    const res = await safeFetch(url, {
      allowHosts: opts.allowHosts,
      accept: 'any',
      maxBytes: SITEMAP_MAX_BYTES,
      signal: opts.signal,
    }).catch(skipHttpError);
    return res && isOk(res) ? parseSitemap(res.body.toString('utf8')) : undefined;
  };
  const root = await read(`${origin}/sitemap.xml`);
  if (!root) return [];
  if (!root.index) return root.locations;
  const out: string[] = [];
  const children = root.locations.filter((l) => sameOriginUrl(l, origin, origin));
  for (const child of children.slice(0, MAX_CHILD_SITEMAPS)) {
    const sitemap = await read(child);
    if (sitemap && !sitemap.index) out.push(...sitemap.locations);
  }
  return out;
}
