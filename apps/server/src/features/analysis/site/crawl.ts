import { HttpError } from '../../../lib/http-error';
import { fetchRobotsTxt, robotsTextToObey } from '../fetch/fetch-robots-txt';
import { parseRobotsTxt, type RobotsRules } from '../fetch/robots-txt';
import { NotHtmlError, safeFetch, type FetchedResource } from '../fetch/safe-fetch';
import type { RobotsTxtResult } from '../audits/seo/seo-page';
import { cpuPool } from '../../../workers/cpu-pool';
import type { AnalysisCpuTasks } from '../analysis.cpu';
import { CrawlReport, FROM_SITEMAP } from './crawl-report';
import { parseSitemap } from './sitemap';

/**
 * Finds the pages of one site: same origin only, robots.txt obeyed, the sitemap's addresses
 * first, then links found in crawled pages, breadth first. Every request goes through safeFetch,
 * so the address policy (no private or loopback targets unless allowed) holds on every hop. Each
 * page is fetched once and handed to `onPage` (the site analysis audits it there); robots.txt is
 * fetched once per origin and handed along, so the audits never fetch it again.
 */
export interface CrawlOptions {
  /** FETCH_ALLOW_HOSTS. */
  allowHosts: readonly string[];
  maxPages: number;
  signal?: AbortSignal;
  /**
   * A page an earlier run of the job already crawled (and audited): where its address led and
   * its links. It is not fetched again.
   */
  known?(url: string): Promise<KnownPage | undefined>;
  /** Each page of the site found (an HTML page that answered 2xx), awaited before the crawl goes on. */
  onPage?(page: CrawledPage): Promise<void>;
}

export interface KnownPage {
  /** Its address after redirects. */
  url: string;
  links: string[];
}

export interface CrawledPage extends KnownPage {
  /** The address the crawl asked for (before redirects). */
  requested: string;
  /** The page as fetched this run; undefined for a known page. */
  fetched?: FetchedResource;
  /** The site's robots.txt as fetched (for the SEO audit). */
  robots: RobotsTxtResult;
}

export interface CrawlResult {
  /** The start address after redirects: the origin crawled is its origin. */
  startUrl: string;
  pages: string[];
  /** Same-origin addresses robots.txt disallowed: never fetched. */
  disallowed: string[];
  /** Every address fetched and how it answered; the links that answered 4xx/5xx. */
  report: CrawlReport;
  /** robots.txt disallows the start address, and the site's root too. */
  disallowsAll: boolean;
}

/** Robots rules are read for our own user agent name, falling back to `*`. */
const ROBOTS_AGENT = 'InkwellPageAnalysis';
const SITEMAP_MAX_BYTES = 5 * 1024 * 1024;
/** Child sitemaps of a sitemap index read at most (a crawl is at most 50 pages anyway). */
const MAX_CHILD_SITEMAPS = 5;
/** Failed or non-HTML addresses tried at most per page wanted, so a broken site ends quickly. */
const ATTEMPTS_PER_PAGE = 3;

/** A page loaded this run or known from an earlier one; `ok` when it is an HTML page that answered 2xx. */
interface Loaded extends KnownPage {
  ok: boolean;
  fetched?: FetchedResource;
}

/** Loads an address, telling `report` how it answered (an address that is no HTML page too). */
async function load(url: string, opts: CrawlOptions, report: CrawlReport): Promise<Loaded> {
  const known = await opts.known?.(url);
  if (known) {
    report.answered(url, known.url, 200, true);
    return { ...known, ok: true };
  }
  let fetched: FetchedResource;
  try {
    fetched = await fetchHtml(url, opts);
  } catch (err) {
    if (err instanceof NotHtmlError) {
      report.answered(url, err.url, err.status, false);
      return { url: err.url, links: [], ok: false };
    }
    if (err instanceof HttpError && !opts.signal?.aborted) report.answered(url, url, null, false);
    throw err;
  }
  report.answered(url, fetched.url, fetched.status, true);
  const ok = isOk(fetched);
  // The links are read by jsdom in the CPU pool, off the event loop.
  const links = ok
    ? await cpuPool<AnalysisCpuTasks>().run('pageLinks', fetched, { signal: opts.signal })
    : [];
  return { url: fetched.url, links, ok, fetched: ok ? fetched : undefined };
}

export async function crawlSite(start: string, opts: CrawlOptions): Promise<CrawlResult> {
  let origin = new URL(start).origin;
  let robots = await readRobots(origin, opts);
  const report = new CrawlReport();
  const disallowed: string[] = [];
  let first: Loaded | undefined;
  if (robots.rules.isAllowed(start, ROBOTS_AGENT)) {
    first = await load(start, opts, report);
    const landed = new URL(first.url).origin;
    if (landed !== origin) {
      // example.com → www.example.com: the site is where the start address leads.
      origin = landed;
      robots = await readRobots(origin, opts);
      if (!robots.rules.isAllowed(first.url, ROBOTS_AGENT)) {
        disallowed.push(first.url);
        first = undefined;
      }
    }
  } else disallowed.push(start);

  const seen = new Set<string>([start]);
  const queue: string[] = [];
  const enqueue = (raw: string, base: string, from: string) => {
    const url = sameOriginUrl(raw, base, origin);
    if (!url) return;
    report.link(url, from);
    if (seen.has(url)) return;
    seen.add(url);
    if (robots.rules.isAllowed(url, ROBOTS_AGENT)) queue.push(url);
    else disallowed.push(url);
  };
  const pages: string[] = [];
  const pending: Loaded[] = [];
  const visit = async (requested: string, page: Loaded) => {
    seen.add(page.url);
    pages.push(page.url);
    pending.push(page);
    await opts.onPage?.({ ...page, requested, robots: robots.result });
  };
  if (first?.ok) await visit(start, first);
  for (const loc of await readSitemaps(origin, opts)) enqueue(loc, origin, FROM_SITEMAP);

  let attempts = 0;
  for (;;) {
    // Links of the pages visited so far join the queue after what is already in it.
    for (const page of pending.splice(0)) {
      for (const href of page.links) enqueue(href, page.url, page.url);
    }
    const next = queue.shift();
    if (next === undefined || pages.length >= opts.maxPages) break;
    if (++attempts > opts.maxPages * ATTEMPTS_PER_PAGE) break;
    const page = await load(next, opts, report).catch(skipHttpError);
    if (!page?.ok || pages.includes(page.url)) continue;
    // A redirect off the site, or into a disallowed part of it, is not followed further.
    if (new URL(page.url).origin !== origin || !robots.rules.isAllowed(page.url, ROBOTS_AGENT))
      continue;
    await visit(next, page);
  }
  const disallowsAll =
    pages.length === 0 &&
    disallowed.includes(start) &&
    !robots.rules.isAllowed(`${origin}/`, ROBOTS_AGENT);
  return { startUrl: first?.url ?? start, pages, disallowed, report, disallowsAll };
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

async function readRobots(
  origin: string,
  opts: CrawlOptions,
): Promise<{ result: RobotsTxtResult; rules: RobotsRules }> {
  const result = await fetchRobotsTxt(origin, opts);
  // No robots.txt (or an unreadable one): everything may be crawled, as crawlers do.
  return { result, rules: parseRobotsTxt(robotsTextToObey(result)) };
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
