import { validateRobotsTxt, parseRobotsTxt } from '../../fetch/robots-txt';
import { imageAlt } from './seo-image-alt';
import { crawlableAnchors, linkText } from './seo-anchor-audits';
import { canonical, hreflang } from './seo-link-audits';
import { headerValues, type ScoredAudit, type SeoPage, type Verdict } from './seo-page';

/**
 * The audits of Lighthouse's SEO category, with Lighthouse's ids, verdicts and weights, computed
 * from the fetched HTML (no scripts run, so a page that builds its head in JavaScript is judged as
 * a crawler that does not render would see it).
 */
export type { RobotsTxtResult, ScoredAudit, SeoPage } from './seo-page';

const BOT_USER_AGENTS = [undefined, 'Googlebot', 'bingbot', 'DuckDuckBot', 'archive.org_bot'];

function metaElements(doc: Document) {
  return [...doc.querySelectorAll('head meta[name]')].map((m) => ({
    name: (m.getAttribute('name') ?? '').toLowerCase(),
    content: m.getAttribute('content') ?? '',
  }));
}

function hasBlockingDirective(directives: string): boolean {
  return directives
    .split(',')
    .map((d) => d.toLowerCase().trim())
    .some((d) => {
      if (d === 'noindex' || d === 'none') return true;
      const [key, ...rest] = d.split(':');
      const date = Date.parse(rest.join(':'));
      return key === 'unavailable_after' && rest.length > 0 && !isNaN(date) && date < Date.now();
    });
}

function isCrawlable(page: SeoPage): Verdict {
  const metas = metaElements(page.document);
  const robotsHeaders = headerValues(page, 'x-robots-tag');
  const rules =
    page.robots.content && page.robots.status && page.robots.status < 300
      ? parseRobotsTxt(page.robots.content)
      : undefined;
  const blocked: string[] = [];
  const genericReasons: string[] = [];
  for (const ua of BOT_USER_AGENTS) {
    const reasons: string[] = [];
    const meta =
      (ua && metas.find((m) => m.name === ua.toLowerCase())) ||
      metas.find((m) => m.name === 'robots');
    if (meta && hasBlockingDirective(meta.content)) {
      reasons.push(`<meta name="${meta.name}" content="${meta.content}">`);
    }
    for (const value of robotsHeaders) {
      const prefix = /^([^,:]+):/.exec(value)?.[1];
      const headerUa = prefix && prefix.toLowerCase() !== 'unavailable_after' ? prefix : undefined;
      if (headerUa !== ua && headerUa !== undefined) continue;
      const directives =
        ua && value.startsWith(`${ua}:`) ? value.replace(`${ua}:`, '') : value.trim();
      if (hasBlockingDirective(directives)) reasons.push(`X-Robots-Tag: ${value}`);
    }
    if (rules && !rules.isAllowed(page.url, ua)) reasons.push('robots.txt disallows this page');
    if (reasons.length) blocked.push(ua ?? '*');
    if (!ua) genericReasons.push(...reasons);
  }
  // Like Lighthouse: blocked only when every known bot (and the generic rules) is blocked.
  if (blocked.length === BOT_USER_AGENTS.length) {
    // The title says it is blocked: the details say only why.
    return { passed: false, details: genericReasons.join('; ') || 'Every crawler is blocked.' };
  }
  if (blocked.length) {
    return {
      passed: true,
      details: `Indexable, but these crawlers are blocked: ${blocked.join(', ')}`,
    };
  }
  return {
    passed: true,
    details: 'No robots meta tag, X-Robots-Tag or robots.txt rule blocks indexing.',
  };
}

/** axe's document-title rule (Lighthouse reuses it): document.title, as the browser reads it. */
function documentTitle(page: SeoPage): Verdict {
  const title = page.document.title.trim();
  return title
    ? { passed: true, details: `Title: "${title}"` }
    : { passed: false, details: 'The document has no <title> element (or it is empty).' };
}

function metaDescription(page: SeoPage): Verdict {
  const meta = metaElements(page.document).find((m) => m.name === 'description');
  if (!meta) return { passed: false, details: 'No <meta name="description"> element.' };
  if (!meta.content.trim()) return { passed: false, details: 'Description text is empty.' };
  return { passed: true, details: `Description: "${meta.content.trim()}"` };
}

function httpStatusCode(page: SeoPage): Verdict {
  const failed = page.status >= 400 && page.status <= 599;
  return {
    passed: !failed,
    details: failed
      ? `The page answered HTTP ${page.status}; search engines may not index it.`
      : `HTTP ${page.status}`,
  };
}

function robotsTxt(page: SeoPage): Verdict {
  const { status, content, error } = page.robots;
  // Like Lighthouse: only server errors fail; any 4xx (429 included) means "no robots.txt".
  if (status && status >= 500) {
    return { passed: false, details: `Request for robots.txt returned HTTP status: ${status}` };
  }
  if ((status && status >= 400) || content === '') {
    return { passed: true, applicable: false, details: 'No robots.txt (not applicable).' };
  }
  if (error || !status || content === undefined) {
    return { passed: false, details: `Fetch of robots.txt failed${error ? `: ${error}` : ''}` };
  }
  const errors = validateRobotsTxt(content);
  return errors.length
    ? {
        passed: false,
        details: `${errors.length} error(s): ${errors
          .slice(0, 5)
          .map((e) => `line ${e.line} "${e.content.trim()}": ${e.message}`)
          .join('; ')}`,
      }
    : { passed: true, details: 'robots.txt is valid.' };
}

function structuredData(page: SeoPage): Verdict {
  const scripts = [...page.document.querySelectorAll('script[type="application/ld+json" i]')];
  if (scripts.length === 0)
    return { passed: true, applicable: false, details: 'No JSON-LD structured data.' };
  const problems: string[] = [];
  scripts.forEach((s, i) => {
    let data: unknown;
    try {
      data = JSON.parse(s.textContent ?? '');
    } catch (e) {
      problems.push(`block ${i + 1}: invalid JSON (${(e as Error).message})`);
      return;
    }
    const items = Array.isArray(data) ? data : [data];
    for (const item of items) {
      if (!item || typeof item !== 'object') problems.push(`block ${i + 1}: not a JSON-LD object`);
      else if (!('@context' in item)) problems.push(`block ${i + 1}: missing @context`);
      else if (!('@type' in item) && !('@graph' in item))
        problems.push(`block ${i + 1}: missing @type`);
    }
  });
  return problems.length
    ? { passed: false, details: problems.join('; ') }
    : { passed: true, details: `${scripts.length} valid JSON-LD block(s).` };
}

// Lighthouse 12 weights: is-crawlable heaviest, structured-data a manual audit outside the score.
// Each audit has Lighthouse's two titles: what passing looks like, and what is wrong when it fails.
const LIGHTHOUSE_SEO: Array<[string, string, string, number, (p: SeoPage) => Verdict]> = [
  [
    'is-crawlable',
    'Page isn’t blocked from indexing',
    'Page is blocked from indexing',
    4.043478261,
    isCrawlable,
  ],
  [
    'document-title',
    'Document has a <title> element',
    'Document doesn’t have a <title> element',
    1,
    documentTitle,
  ],
  [
    'meta-description',
    'Document has a meta description',
    'Document does not have a meta description',
    1,
    metaDescription,
  ],
  [
    'http-status-code',
    'Page has successful HTTP status code',
    'Page has unsuccessful HTTP status code',
    1,
    httpStatusCode,
  ],
  ['link-text', 'Links have descriptive text', 'Links do not have descriptive text', 1, linkText],
  ['crawlable-anchors', 'Links are crawlable', 'Links are not crawlable', 1, crawlableAnchors],
  ['robots-txt', 'robots.txt is valid', 'robots.txt is not valid', 1, robotsTxt],
  [
    'image-alt',
    'Image elements have [alt] attributes',
    'Image elements do not have [alt] attributes',
    1,
    imageAlt,
  ],
  [
    'hreflang',
    'Document has a valid hreflang',
    'Document doesn’t have a valid hreflang',
    1,
    hreflang,
  ],
  [
    'canonical',
    'Document has a valid rel=canonical',
    'Document does not have a valid rel=canonical',
    1,
    canonical,
  ],
  [
    'structured-data',
    'Structured data (JSON-LD) is valid',
    'Structured data (JSON-LD) is not valid',
    0,
    structuredData,
  ],
];

export function lighthouseSeoAudits(page: SeoPage): ScoredAudit[] {
  return LIGHTHOUSE_SEO.map(([id, title, failureTitle, weight, run]) => {
    const v = run(page);
    return {
      id,
      title: v.passed ? title : failureTitle,
      weight,
      passed: v.passed,
      details: v.details,
      applicable: v.applicable ?? true,
    };
  });
}
