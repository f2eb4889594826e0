import type { SiteBrokenLink, SiteFetch } from '@inkwell/contract';

/** Where a link was found when no page links there: the sitemap lists it. */
export const FROM_SITEMAP = 'sitemap.xml';

/**
 * What a crawl saw: every address it fetched and how it answered, and which pages link to which
 * address, so an address that answered 4xx/5xx is reported with the pages that lead to it.
 */
export class CrawlReport {
  readonly fetched: SiteFetch[] = [];
  private readonly linkedFrom = new Map<string, Set<string>>();

  /** A link to `url` found on `from` (a page address, or FROM_SITEMAP). */
  link(url: string, from: string) {
    let set = this.linkedFrom.get(url);
    if (!set) this.linkedFrom.set(url, (set = new Set()));
    set.add(from);
  }

  /** `requested` was fetched; it answered `status` (null: no answer) at `url`. */
  answered(requested: string, url: string, status: number | null, html: boolean) {
    this.fetched.push({ url, status, html });
    // Pages linking to the address asked for lead, through its redirects, to where it landed.
    if (url !== requested)
      for (const from of this.linkedFrom.get(requested) ?? []) this.link(url, from);
  }

  /** How many addresses answered each status ("no answer" for none). */
  statusCounts(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const f of this.fetched) {
      const key = f.status === null ? 'no answer' : String(f.status);
      counts[key] = (counts[key] ?? 0) + 1;
    }
    return counts;
  }

  /** The links that answered 4xx/5xx, with the pages that link to them. */
  brokenLinks(): SiteBrokenLink[] {
    return this.fetched
      .filter((f) => f.status !== null && f.status >= 400 && this.linkedFrom.has(f.url))
      .map((f) => ({
        url: f.url,
        status: f.status!,
        linked_from: [...(this.linkedFrom.get(f.url) ?? [])],
      }));
  }
}
