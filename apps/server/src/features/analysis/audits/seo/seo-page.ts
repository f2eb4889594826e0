/** What the SEO audits read: the fetched page, its headers and its robots.txt. */
export interface SeoPage {
  url: string;
  status: number;
  /** Alternating names and values as received. */
  rawHeaders: string[];
  document: Document;
  robots: RobotsTxtResult;
}

export interface RobotsTxtResult {
  status?: number;
  content?: string;
  /** Why robots.txt could not be fetched (refused, unreachable...). */
  error?: string;
}

export interface ScoredAudit {
  id: string;
  title: string;
  passed: boolean;
  details: string;
  /** Lighthouse's weight; 0 for audits outside its score. */
  weight: number;
  /** False where Lighthouse marks the audit not applicable (left out of the score). */
  applicable: boolean;
}

export type Verdict = { passed: boolean; details: string; applicable?: boolean };

/** Every value of a response header, in order (repeated headers stay separate). */
export function headerValues(page: SeoPage, name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < page.rawHeaders.length; i += 2) {
    if (page.rawHeaders[i]!.toLowerCase() === name) out.push(page.rawHeaders[i + 1]!);
  }
  return out;
}

/** An HTML element, as opposed to one of an SVG or MathML subtree. */
export const isHtmlElement = (el: Element) => el.namespaceURI === 'http://www.w3.org/1999/xhtml';

/** `raw` resolved against `base`; null when it does not parse. */
export function resolveUrl(raw: string, base: string): string | null {
  try {
    return new URL(raw, base).href;
  } catch {
    return null;
  }
}
