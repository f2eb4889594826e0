import { axeCore } from '../../../../lib/lazy-axe';
import { parseLinkHeader } from '../../fetch/link-header';
import { headerValues, isHtmlElement, resolveUrl, type SeoPage, type Verdict } from './seo-page';

/**
 * Lighthouse's head-link audits, hreflang and canonical, on the links as its LinkElements gatherer
 * collects them: <link> elements (those in the body are ignored) and the HTTP Link header.
 */
interface LinkElement {
  /** Lowercased, otherwise as written: "canonical" and "Canonical" count, " canonical" does not. */
  rel: string;
  /** Resolved against the page; null when it does not parse (headers only). */
  href: string | null;
  hrefRaw: string;
  hreflang: string;
  source: 'head' | 'body' | 'headers';
}

function linkElements(page: SeoPage): LinkElement[] {
  const inDom = [...page.document.querySelectorAll('link')].filter(isHtmlElement).map((l) => {
    const link = l as HTMLLinkElement;
    return {
      rel: link.rel.toLowerCase(),
      href: link.href,
      hrefRaw: link.getAttribute('href') ?? '',
      hreflang: link.hreflang,
      source: link.closest('head') ? ('head' as const) : ('body' as const),
    };
  });
  const inHeaders = headerValues(page, 'link').flatMap((value) =>
    parseLinkHeader(value).map((ref) => ({
      rel: ref.rel.toLowerCase(),
      href: resolveUrl(ref.uri, page.url),
      hrefRaw: ref.uri,
      hreflang: ref.hreflang,
      source: 'headers' as const,
    })),
  );
  return [...inDom, ...inHeaders];
}

// axe-core's list of language subtags, the one Lighthouse's hreflang audit uses (untyped in axe's d.ts).
let validLangs: Set<string> | undefined;
const validLanguages = () =>
  (validLangs ??= new Set((axeCore().utils as unknown as { validLangs(): string[] }).validLangs()));

export function hreflang(page: SeoPage): Verdict {
  const problems: string[] = [];
  for (const link of linkElements(page)) {
    if (link.rel !== 'alternate' || !link.hreflang || link.source === 'body') continue;
    const where = link.source === 'head' ? 'head' : 'Link header';
    const primary = link.hreflang.split('-')[0]!.toLowerCase();
    if (link.hreflang.toLowerCase() !== 'x-default' && !validLanguages().has(primary)) {
      problems.push(`Unexpected language code "${link.hreflang}" (${where})`);
    }
    const raw = link.hrefRaw.toLowerCase();
    if (!raw.startsWith('http:') && !raw.startsWith('https:')) {
      problems.push(`Relative href value "${link.hrefRaw}" (${where})`);
    }
  }
  return problems.length
    ? { passed: false, details: problems.slice(0, 5).join('; ') }
    : { passed: true, details: 'hreflang links are valid (or there are none).' };
}

export function canonical(page: SeoPage): Verdict {
  const unique = new Set<string>();
  const hreflangUrls = new Set<string>();
  let invalid: string | undefined;
  let relative: string | undefined;
  for (const link of linkElements(page)) {
    if (link.source === 'body') continue; // not a canonical reference for search engines
    if (link.rel === 'canonical') {
      if (!link.hrefRaw) continue;
      if (!link.href) invalid = link.hrefRaw;
      else if (!isValidUrl(link.hrefRaw)) relative = link.hrefRaw;
      else unique.add(link.href);
    } else if (link.rel === 'alternate' && link.href && link.hreflang) {
      hreflangUrls.add(link.href);
    }
  }
  if (invalid) return { passed: false, details: `Invalid URL (${invalid})` };
  if (relative) return { passed: false, details: `Is not an absolute URL (${relative})` };
  if (unique.size === 0)
    return { passed: true, applicable: false, details: 'No canonical link (not applicable).' };
  if (unique.size > 1)
    return { passed: false, details: `Multiple conflicting URLs (${[...unique].join(', ')})` };
  const canonicalUrl = new URL([...unique][0]!);
  const base = new URL(page.url);
  if (
    hreflangUrls.has(base.href) &&
    hreflangUrls.has(canonicalUrl.href) &&
    base.href !== canonicalUrl.href
  ) {
    return { passed: false, details: `Points to another hreflang location (${base.href})` };
  }
  if (
    canonicalUrl.origin === base.origin &&
    canonicalUrl.pathname === '/' &&
    base.pathname !== '/'
  ) {
    return {
      passed: false,
      details:
        "Points to the domain's root URL (the homepage), instead of an equivalent page of content",
    };
  }
  return { passed: true, details: `Canonical: ${canonicalUrl.href}` };
}

function isValidUrl(raw: string): boolean {
  try {
    new URL(raw);
    return true;
  } catch {
    return false;
  }
}
