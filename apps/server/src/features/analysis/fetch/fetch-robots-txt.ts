import { HttpError } from '../../../lib/http-error';
import type { RobotsTxtResult } from '../audits/seo/seo-page';
import { safeFetch } from './safe-fetch';

/** Google reads the first 500 KiB of a robots.txt. */
const ROBOTS_MAX_BYTES = 512 * 1024;

/**
 * The robots.txt of a page's origin, as fetched: its status and text, or why it could not be
 * fetched (refused by the address policy, unreachable). The SEO audit judges it as it is; the
 * crawl obeys it (robotsRulesOf).
 */
export async function fetchRobotsTxt(
  pageUrl: string,
  opts: { allowHosts: readonly string[]; signal?: AbortSignal },
): Promise<RobotsTxtResult> {
  try {
    const res = await safeFetch(new URL('/robots.txt', pageUrl).href, {
      allowHosts: opts.allowHosts,
      accept: 'any',
      maxBytes: ROBOTS_MAX_BYTES,
      signal: opts.signal,
    });
    return { status: res.status, content: res.body.toString('utf8') };
  } catch (err) {
    if (err instanceof HttpError) return { error: err.message };
    throw err;
  }
}

/** The text a crawler obeys: none (everything may be crawled) unless robots.txt answered 2xx. */
export const robotsTextToObey = (r: RobotsTxtResult) =>
  r.status !== undefined && r.status >= 200 && r.status < 300 ? (r.content ?? '') : '';
