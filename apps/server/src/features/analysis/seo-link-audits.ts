import axe from 'axe-core';
import { headerValues, type SeoPage, type Verdict } from './seo-page';

/**
 * Lighthouse's link audits: link-text and crawlable-anchors (anchors in the body), hreflang and
 * canonical (links in the head and the HTTP Link header), with Lighthouse's rules and messages.
 */
const NON_DESCRIPTIVE: Record<string, string[]> = {
  en: ['click here', 'click this', 'go', 'here', 'information', 'learn more', 'more', 'more info'],
  en2: ['more information', 'right here', 'read more', 'see more', 'start', 'this'],
  ja: ['ここをクリック', 'こちらをクリック', 'リンク', '続きを読む', '続く', '全文表示'],
  es: ['click aquí', 'click aqui', 'clicka aquí', 'clicka aqui', 'pincha aquí', 'pincha aqui'],
  es2: ['aquí', 'aqui', 'más', 'mas', 'más información', 'más informacion', 'mas información'],
  es3: ['mas informacion', 'este', 'enlace', 'este enlace', 'empezar'],
  pt: ['clique aqui', 'ir', 'mais informação', 'mais informações', 'mais', 'veja mais'],
  ko: ['여기', '여기를 클릭', '클릭', '링크', '자세히', '자세히 보기', '계속', '이동', '전체 보기'],
  sv: ['här', 'klicka här', 'läs mer', 'mer', 'mer info', 'mer information'],
  de: ['klicke hier', 'hier klicken', 'hier', 'mehr', 'siehe', 'dies', 'das', 'weiterlesen'],
  fa: ['اطلاعات بیشتر', 'اطلاعات', 'این', 'اینجا بزنید', 'اینجا کلیک کنید', 'اینجا', 'برو'],
  fa2: ['بیشتر بخوانید', 'بیشتر بدانید', 'بیشتر', 'شروع'],
};
const BY_LANG = new Map<string, Set<string>>();
for (const [key, words] of Object.entries(NON_DESCRIPTIVE)) {
  const lang = key.replace(/\d$/, '');
  BY_LANG.set(lang, new Set([...(BY_LANG.get(lang) ?? []), ...words]));
}
const ALL_NON_DESCRIPTIVE = new Set([...BY_LANG.values()].flatMap((s) => [...s]));

function isFullUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

function withoutFragment(url: string): string {
  return url.split('#')[0]!;
}

export function linkText(page: SeoPage): Verdict {
  const failing: string[] = [];
  for (const a of page.document.querySelectorAll('a')) {
    const href = (a as HTMLAnchorElement).href;
    const rel = (a.getAttribute('rel') ?? '').toLowerCase();
    if (!href || rel.includes('nofollow')) continue;
    const lower = href.toLowerCase();
    if (lower.startsWith('javascript:') || lower.startsWith('mailto:')) continue;
    if (withoutFragment(href) === withoutFragment(page.url)) continue; // in-page anchors
    const text = (a.textContent ?? '').trim();
    if (!text) continue;
    const lang = a.closest('[lang]')?.getAttribute('lang')?.split('-')[0]?.toLowerCase();
    const words = lang ? BY_LANG.get(lang) : ALL_NON_DESCRIPTIVE;
    if (isFullUrl(text) || words?.has(text.toLowerCase())) failing.push(`"${text}" → ${href}`);
  }
  return failing.length
    ? {
        passed: false,
        details: `${failing.length} link(s) without descriptive text: ${failing.slice(0, 5).join(', ')}`,
      }
    : { passed: true, details: 'Links have descriptive text.' };
}

const HREF_ATTRIBUTES = ['target', 'download', 'ping', 'rel', 'hreflang', 'type', 'referrerpolicy'];

export function crawlableAnchors(page: SeoPage): Verdict {
  const failing: string[] = [];
  for (const a of page.document.querySelectorAll('a')) {
    const rawHref = (a.getAttribute('href') ?? '').replace(/\s/g, '');
    const names = a.getAttributeNames();
    const fail = (() => {
      if ((a.getAttribute('role') ?? '').trim()) return false;
      if (rawHref.startsWith('mailto:')) return false;
      if (rawHref === '' && a.id) return false;
      if (rawHref.startsWith('file:')) return true;
      if ((a.getAttribute('name') ?? '').trim()) return false;
      const placeholder =
        !names.includes('href') &&
        !HREF_ATTRIBUTES.some((n) => names.includes(n)) &&
        ['page', 'location'].includes(a.getAttribute('aria-current') ?? '');
      if (placeholder) return false;
      if ((a as HTMLAnchorElement).href === '') return true;
      if (/javascript:void(\(|)0(\)|)/.test(rawHref)) return true;
      try {
        new URL(rawHref, page.url);
        return false;
      } catch {
        return true;
      }
    })();
    if (fail) failing.push(a.outerHTML.slice(0, 120));
  }
  return failing.length
    ? {
        passed: false,
        details: `${failing.length} uncrawlable link(s): ${failing.slice(0, 5).join(' ')}`,
      }
    : { passed: true, details: 'Links are crawlable.' };
}

// axe-core's list of language subtags, the one Lighthouse's hreflang audit uses (untyped in axe's d.ts).
const VALID_LANGS = new Set((axe.utils as unknown as { validLangs(): string[] }).validLangs());

export function hreflang(page: SeoPage): Verdict {
  const problems: string[] = [];
  const check = (lang: string, href: string, where: string) => {
    const primary = lang.split('-')[0]!.toLowerCase();
    if (lang.toLowerCase() !== 'x-default' && !VALID_LANGS.has(primary)) {
      problems.push(`Unexpected language code "${lang}" (${where})`);
    }
    if (!isFullUrl(href)) problems.push(`Relative href value "${href}" (${where})`);
  };
  for (const link of page.document.querySelectorAll('link[rel~="alternate" i][hreflang]')) {
    const where = link.closest('body') ? 'body' : 'head';
    if (where === 'body') problems.push(`Unexpected location: <link hreflang> in the body`);
    else check(link.getAttribute('hreflang') ?? '', link.getAttribute('href') ?? '', 'head');
  }
  for (const header of headerValues(page, 'link')) {
    for (const part of header.split(/,(?=\s*<)/)) {
      const m = /<([^>]*)>(.*)/.exec(part.trim());
      const lang = /hreflang="?([^";]+)"?/i.exec(m?.[2] ?? '')?.[1];
      if (m && lang && /rel="?[^";]*alternate/i.test(m[2]!)) check(lang, m[1]!, 'Link header');
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
  for (const link of page.document.querySelectorAll('head link[rel]')) {
    const rel = (link.getAttribute('rel') ?? '').trim().toLowerCase();
    const raw = link.getAttribute('href') ?? '';
    if (rel === 'canonical' && raw) {
      let resolved: string | undefined;
      try {
        resolved = new URL(raw, page.url).href;
      } catch {
        invalid = raw;
        continue;
      }
      if (isAbsolute(raw)) unique.add(resolved);
      else relative = raw;
    } else if (rel === 'alternate' && raw && link.getAttribute('hreflang')) {
      try {
        hreflangUrls.add(new URL(raw, page.url).href);
      } catch {
        /* hreflang audit reports it */
      }
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

function isAbsolute(raw: string): boolean {
  try {
    const u = new URL(raw);
    return Boolean(u.origin) && u.origin !== 'null';
  } catch {
    return false;
  }
}
