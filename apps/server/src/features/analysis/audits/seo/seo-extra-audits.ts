import { visibleText } from '../../fetch/page-document';
import type { ScoredAudit, SeoPage } from './seo-lighthouse-audits';

/**
 * What Lighthouse's SEO category lacks but a professional audit checks. Weight 0, so the score
 * stays comparable with Lighthouse's; they feed the details and the AI advice.
 */
/** `applicable: false`: the audit has nothing to judge (another audit reports the fault). */
type Verdict = { passed: boolean; details: string; applicable?: boolean };

export const TITLE_LENGTH = { min: 10, max: 60 };
export const DESCRIPTION_LENGTH = { min: 50, max: 160 };
export const THIN_CONTENT_WORDS = 300;

function meta(doc: Document, attr: 'name' | 'property', key: string): string | undefined {
  for (const m of doc.querySelectorAll(`meta[${attr}]`)) {
    if (m.getAttribute(attr)?.toLowerCase() === key) return m.getAttribute('content')?.trim() ?? '';
  }
  return undefined;
}

/**
 * Lighthouse's heading-order semantics: heading levels only go down one at a time, from the top:
 * the outline starts at h1, so an h3 before the h1 (or right after an h1) skips a level.
 */
function headingOutline(page: SeoPage): Verdict {
  const headings = [...page.document.querySelectorAll('h1, h2, h3, h4, h5, h6')];
  if (headings.length === 0) return { passed: false, details: 'The page has no headings.' };
  const skips: string[] = [];
  let previous = 0;
  for (const h of headings) {
    const level = Number(h.tagName[1]);
    if (level > previous + 1) {
      const text = (h.textContent ?? '').trim().slice(0, 40);
      skips.push(previous ? `h${previous} → h${level} ("${text}")` : `h${level} first ("${text}")`);
    }
    previous = level;
  }
  return skips.length
    ? {
        passed: false,
        details: `Levels go down one at a time from h1; skipped: ${skips.slice(0, 5).join(', ')}`,
      }
    : {
        passed: true,
        details: `${headings.length} headings, each at most one level below the one before.`,
      };
}

function singleH1(page: SeoPage): Verdict {
  const count = page.document.querySelectorAll('h1').length;
  if (count === 1) return { passed: true, details: 'Exactly one <h1>.' };
  return {
    passed: false,
    details: count === 0 ? 'The page has no <h1>.' : `The page has ${count} <h1> elements.`,
  };
}

function openGraph(page: SeoPage): Verdict {
  const missing = ['og:title', 'og:description', 'og:image'].filter(
    (p) => !meta(page.document, 'property', p),
  );
  return missing.length
    ? { passed: false, details: `Missing Open Graph tags: ${missing.join(', ')}` }
    : { passed: true, details: 'og:title, og:description and og:image are set.' };
}

function twitterCard(page: SeoPage): Verdict {
  const card = meta(page.document, 'name', 'twitter:card');
  return card
    ? { passed: true, details: `twitter:card is "${card}".` }
    : { passed: false, details: 'No <meta name="twitter:card"> tag.' };
}

function lengthCheck(
  value: string | undefined,
  what: string,
  range: { min: number; max: number },
): Verdict {
  // A missing title or description is one fault, reported by Lighthouse's own audit.
  if (!value) return { passed: true, applicable: false, details: `No ${what} to measure.` };
  const n = value.length;
  if (n < range.min)
    return {
      passed: false,
      details: `The ${what} is ${n} characters: too short (aim for ${range.min}–${range.max}).`,
    };
  if (n > range.max)
    return {
      passed: false,
      details: `The ${what} is ${n} characters: it may be cut off in results (aim for ${range.min}–${range.max}).`,
    };
  return { passed: true, details: `The ${what} is ${n} characters.` };
}

function thinContent(page: SeoPage): Verdict {
  const body = page.document.body;
  const words = body ? visibleText(body).split(' ').filter(Boolean).length : 0;
  return words >= THIN_CONTENT_WORDS
    ? { passed: true, details: `${words} words of text.` }
    : {
        passed: false,
        details: `Only ${words} words of text (under ${THIN_CONTENT_WORDS}): thin content ranks poorly.`,
      };
}

const SUBRESOURCES =
  'img[src], script[src], link[rel~="stylesheet" i][href], iframe[src], video[src], audio[src], source[src], embed[src], object[data]';

function mixedContent(page: SeoPage): Verdict {
  if (new URL(page.url).protocol !== 'https:') {
    return {
      passed: true,
      details:
        'The page is served over plain HTTP, so mixed content does not apply (consider HTTPS).',
    };
  }
  const insecure: string[] = [];
  for (const el of page.document.querySelectorAll(SUBRESOURCES)) {
    const raw = el.getAttribute('src') ?? el.getAttribute('href') ?? el.getAttribute('data') ?? '';
    try {
      if (new URL(raw, page.url).protocol === 'http:') insecure.push(raw);
    } catch {
      /* not a URL: nothing is loaded */
    }
  }
  return insecure.length
    ? {
        passed: false,
        details: `${insecure.length} resource(s) loaded over HTTP on an HTTPS page: ${insecure.slice(0, 5).join(', ')}`,
      }
    : { passed: true, details: 'No insecure sub-resources.' };
}

function viewport(page: SeoPage): Verdict {
  const content = meta(page.document, 'name', 'viewport');
  if (content === undefined)
    return {
      passed: false,
      details: 'No <meta name="viewport"> tag: mobile search ranks mobile-friendly pages first.',
    };
  return /width\s*=|initial-scale\s*=/i.test(content)
    ? { passed: true, details: `viewport: "${content}"` }
    : {
        passed: false,
        details: `The viewport tag sets neither width nor initial-scale ("${content}").`,
      };
}

// Passing title, then the title that says what is wrong (like Lighthouse's failureTitle).
const EXTRA: Array<[string, string, string, (p: SeoPage) => Verdict]> = [
  [
    'heading-outline',
    'Heading elements appear in a sequentially-descending order',
    'Heading elements are not in a sequentially-descending order',
    headingOutline,
  ],
  ['single-h1', 'Page has exactly one <h1>', 'Page does not have exactly one <h1>', singleH1],
  ['open-graph', 'Open Graph tags are present', 'Open Graph tags are missing', openGraph],
  ['twitter-card', 'Twitter card tag is present', 'Twitter card tag is missing', twitterCard],
  [
    'title-length',
    'Title length is within limits',
    'Title length is outside the limits',
    (p) =>
      lengthCheck(p.document.querySelector('title')?.textContent?.trim(), 'title', TITLE_LENGTH),
  ],
  [
    'meta-description-length',
    'Meta description length is within limits',
    'Meta description length is outside the limits',
    (p) =>
      lengthCheck(meta(p.document, 'name', 'description'), 'meta description', DESCRIPTION_LENGTH),
  ],
  ['thin-content', 'Page has enough text content', 'Page has too little text content', thinContent],
  ['mixed-content', 'No mixed content', 'Page loads mixed content', mixedContent],
  [
    'viewport',
    'Has a viewport meta tag',
    'Viewport meta tag is missing or sets no width',
    viewport,
  ],
];

export function extraSeoAudits(page: SeoPage): ScoredAudit[] {
  return EXTRA.map(([id, title, failureTitle, run]) => {
    const { passed, details, applicable = true } = run(page);
    return { id, title: passed ? title : failureTitle, weight: 0, applicable, passed, details };
  });
}

/** Lighthouse's category score: weighted mean of the applicable audits, 0–100. */
export function weightedScore(
  audits: Array<Pick<ScoredAudit, 'weight' | 'applicable' | 'passed'>>,
): number {
  let total = 0;
  let earned = 0;
  for (const a of audits) {
    if (!a.applicable || a.weight === 0) continue;
    total += a.weight;
    if (a.passed) earned += a.weight;
  }
  return total === 0 ? 100 : Math.round((earned / total) * 100);
}
