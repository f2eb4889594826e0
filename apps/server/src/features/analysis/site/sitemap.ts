/**
 * The page addresses of a sitemap (sitemaps.org): `<loc>` of `<url>` entries, or of the child
 * sitemaps of a `<sitemapindex>`. A regular expression is enough for this flat format and never
 * resolves entities or external references, so a hostile sitemap cannot make the parser fetch.
 */
export interface ParsedSitemap {
  /** Whether this is a sitemap index (its locations are other sitemaps). */
  index: boolean;
  locations: string[];
}

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&apos;': "'",
};

export function parseSitemap(xml: string): ParsedSitemap {
  const locations: string[] = [];
  for (const m of xml.matchAll(/<loc>\s*(?:<!\[CDATA\[)?([^<\]]*?)(?:\]\]>)?\s*<\/loc>/gi)) {
    const raw = m[1]!.replace(/&(amp|lt|gt|quot|apos);/g, (e) => ENTITIES[e]!);
    if (raw) locations.push(raw);
  }
  return { index: /<sitemapindex[\s>]/i.test(xml), locations };
}
