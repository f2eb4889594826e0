import { renderingOf } from './rendering';
import { isHtmlElement, resolveUrl, type SeoPage, type Verdict } from './seo-page';

/**
 * Lighthouse's anchor audits, link-text and crawlable-anchors, on the anchors as its AnchorElements
 * gatherer describes them (HTML and SVG <a>, innerText, the language of the text).
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
  ta: ['அடுத்த பக்கம்', 'மறுபக்கம்', 'முந்தைய பக்கம்', 'முன்பக்கம்', 'மேலும் அறிக'],
  ta2: ['மேலும் தகவலுக்கு', 'மேலும் தரவுகளுக்கு', 'தயவுசெய்து இங்கே அழுத்தவும்'],
  ta3: ['இங்கே கிளிக் செய்யவும்'],
  fa: ['اطلاعات بیشتر', 'اطلاعات', 'این', 'اینجا بزنید', 'اینجا کلیک کنید', 'اینجا', 'برو'],
  fa2: ['بیشتر بخوانید', 'بیشتر بدانید', 'بیشتر', 'شروع'],
};
const BY_LANG = new Map<string, Set<string>>();
for (const [key, words] of Object.entries(NON_DESCRIPTIVE)) {
  const lang = key.replace(/\d$/, '');
  BY_LANG.set(lang, new Set([...(BY_LANG.get(lang) ?? []), ...words]));
}

// Handlers in these attributes of <body> belong to the window, not to the element.
const WINDOW_HANDLERS = new Set(
  'onafterprint onbeforeprint onbeforeunload onblur onerror onfocus onhashchange onlanguagechange onload onmessage onmessageerror onoffline ononline onpagehide onpageshow onpopstate onrejectionhandled onresize onscroll onstorage onunhandledrejection onunload'.split(
    ' ',
  ),
);
const XLINK = 'http://www.w3.org/1999/xlink';
const HREF_ATTRIBUTES = ['target', 'download', 'ping', 'rel', 'hreflang', 'type', 'referrerpolicy'];

interface Anchor {
  el: Element;
  /** Resolved href ('' when there is none). */
  href: string;
  rawHref: string;
  rel: string;
}

/** The language of a link's text: Lighthouse's rule (one page-wide lang, else the text's own). */
function langOf(el: Element, singleLang: string | null): string | undefined {
  if (singleLang !== null) return singleLang;
  let lang: string | null = null;
  for (const child of el.querySelectorAll('*')) {
    if (!child.textContent) continue;
    const childLang = child.closest('[lang]')?.getAttribute('lang');
    if (!childLang) continue;
    if (!lang) lang = childLang;
    else if (lang.split('-')[0] !== childLang.split('-')[0]) return undefined;
  }
  return lang ?? el.closest('[lang]')?.getAttribute('lang') ?? undefined;
}

function anchors(page: SeoPage): Anchor[] {
  return [...page.document.querySelectorAll('a')].map((el) => {
    if (isHtmlElement(el)) {
      const a = el as HTMLAnchorElement;
      return { el, href: a.href, rawHref: el.getAttribute('href') ?? '', rel: a.rel };
    }
    const svgHref = el.getAttribute('href') ?? el.getAttributeNS(XLINK, 'href');
    return {
      el,
      // '' when it does not parse, as Lighthouse's resolveURLOrEmpty
      href: svgHref === null ? '' : (resolveUrl(svgHref, page.url) ?? ''),
      rawHref: el.getAttribute('href') ?? '',
      rel: '',
    };
  });
}

/** innerText for HTML links, textContent for SVG ones, as Lighthouse reads them. */
function textOf(page: SeoPage, el: Element): string {
  return isHtmlElement(el) ? renderingOf(page.document).text(el) : (el.textContent ?? '');
}

/** A page-wide language: the only [lang] of the page, on <html> or <body>. */
function singleLangOf(doc: Document): string | null {
  const langs = doc.querySelectorAll('[lang]');
  return langs.length === 1 && ['BODY', 'HTML'].includes(langs[0]!.nodeName)
    ? langs[0]!.getAttribute('lang')
    : null;
}

function withoutFragment(url: string): string | undefined {
  try {
    const u = new URL(url);
    u.hash = '';
    return u.href;
  } catch {
    return undefined;
  }
}

export function linkText(page: SeoPage): Verdict {
  const here = withoutFragment(page.url);
  const singleLang = singleLangOf(page.document);
  const failing: string[] = [];
  for (const { el, href, rel } of anchors(page)) {
    if (!href || rel.includes('nofollow')) continue;
    const lower = href.toLowerCase();
    if (lower.startsWith('javascript:') || lower.startsWith('mailto:')) continue;
    if (here !== undefined && withoutFragment(href) === here) continue; // in-page anchors
    const text = textOf(page, el).trim();
    const term = text.toLowerCase();
    if (!term) continue;
    const lang = langOf(el, singleLang);
    // Lighthouse looks the language up as written: "EN" matches no list.
    const generic = lang
      ? (BY_LANG.get(lang.split('-')[0]!)?.has(term) ?? false)
      : [...BY_LANG.values()].some((words) => words.has(term));
    if (generic) failing.push(`"${text}" → ${href}`);
  }
  return failing.length
    ? {
        passed: false,
        details: `${failing.length} link(s) without descriptive text: ${failing
          .slice(0, 5)
          .join(', ')}`,
      }
    : { passed: true, details: 'Links have descriptive text.' };
}

/** Whether an element, or one of its ancestors, has an inline event handler (no script runs here). */
function hasListener(el: Element): boolean {
  for (let e: Element | null = el; e; e = e.parentElement) {
    const body = e.nodeName === 'BODY' || e.nodeName === 'FRAMESET';
    for (const name of e.getAttributeNames()) {
      if (/^on[a-z]+$/.test(name) && !(body && WINDOW_HANDLERS.has(name))) return true;
    }
  }
  return false;
}

function isUncrawlable(a: Anchor, base: string): boolean {
  const rawHref = a.rawHref.replace(/\s/g, '');
  const names = a.el.getAttributeNames();
  if ((a.el.getAttribute('role') ?? '').trim()) return false;
  if (rawHref.startsWith('mailto:')) return false;
  if (rawHref === '' && a.el.getAttribute('id')) return false;
  if (rawHref.startsWith('file:')) return true;
  if ((a.el.getAttribute('name') ?? '').trim()) return false;
  // Without href (and the attributes that need one) an <a> is a placeholder: only a scripted
  // one, which a crawler cannot follow, fails.
  if (!names.includes('href') && !HREF_ATTRIBUTES.some((n) => names.includes(n)))
    return hasListener(a.el);
  if (a.href === '') return true;
  if (/javascript:void(\(|)0(\)|)/.test(rawHref)) return true;
  try {
    new URL(rawHref, base);
    return false;
  } catch {
    return true;
  }
}

export function crawlableAnchors(page: SeoPage): Verdict {
  const failing = anchors(page)
    .filter((a) => isUncrawlable(a, page.url))
    .map((a) => a.el.outerHTML.slice(0, 120));
  return failing.length
    ? {
        passed: false,
        details: `${failing.length} uncrawlable link(s): ${failing.slice(0, 5).join(' ')}`,
      }
    : { passed: true, details: 'Links are crawlable.' };
}
