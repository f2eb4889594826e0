/**
 * robots.txt: Lighthouse's validator (same directives, same messages) for the `robots-txt` audit,
 * and a matcher with Google's semantics (group by user agent, longest match wins, Allow wins ties,
 * `*` and `$` patterns) for the robots.txt part of `is-crawlable`.
 */
const DIRECTIVE_SAFELIST = new Set([
  'user-agent',
  'disallow',
  'allow',
  'sitemap',
  'crawl-delay',
  'clean-param',
  'host',
  'request-rate',
  'visit-time',
  'noindex',
  'content-signal',
  'license',
]);
const SITEMAP_PROTOCOLS = new Set(['https:', 'http:', 'ftp:']);

export interface RobotsError {
  line: number;
  content: string;
  message: string;
}

interface Directive {
  name: string;
  value: string;
}

function parseLine(raw: string): Directive | null {
  const line = raw.replace(/#.*$/, '').trim();
  if (!line) return null;
  const colon = line.indexOf(':');
  if (colon === -1) throw new Error('Syntax not understood');
  const name = line.slice(0, colon).trim().toLowerCase();
  const value = line.slice(colon + 1).trim();
  if (!DIRECTIVE_SAFELIST.has(name)) throw new Error('Unknown directive');
  if (name === 'sitemap') {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new Error('Invalid sitemap URL');
    }
    if (!SITEMAP_PROTOCOLS.has(url.protocol)) throw new Error('Invalid sitemap URL protocol');
  }
  if (name === 'user-agent' && !value) throw new Error('No user-agent specified');
  if (name === 'allow' || name === 'disallow') {
    if (value !== '' && value[0] !== '/' && value[0] !== '*') {
      throw new Error('Pattern should either be empty, start with "/" or "*"');
    }
    const dollar = value.indexOf('$');
    if (dollar !== -1 && dollar !== value.length - 1) {
      throw new Error('"$" should only be used at the end of the pattern');
    }
  }
  return { name, value };
}

export function validateRobotsTxt(content: string): RobotsError[] {
  const errors: RobotsError[] = [];
  let inGroup = false;
  content.split(/\r\n|\r|\n/).forEach((line, i) => {
    let parsed: Directive | null = null;
    try {
      parsed = parseLine(line);
    } catch (e) {
      errors.push({ line: i + 1, content: line, message: (e as Error).message });
    }
    if (!parsed) return;
    if (parsed.name === 'user-agent') inGroup = true;
    else if (!inGroup && (parsed.name === 'allow' || parsed.name === 'disallow')) {
      errors.push({ line: i + 1, content: line, message: 'No user-agent specified' });
    }
  });
  return errors;
}

interface Rule {
  allow: boolean;
  pattern: string;
}

export interface RobotsRules {
  /** Whether `url` may be crawled by `userAgent` (undefined: the generic `*` group). */
  isAllowed(url: string, userAgent?: string): boolean;
}

export function parseRobotsTxt(content: string): RobotsRules {
  const groups = new Map<string, Rule[]>();
  let current: string[] = [];
  let lastWasAgent = false;
  for (const raw of content.split(/\r\n|\r|\n/)) {
    let d: Directive | null;
    try {
      d = parseLine(raw);
    } catch {
      continue; // crawlers skip lines they do not understand
    }
    if (!d) continue;
    if (d.name === 'user-agent') {
      // Consecutive User-agent lines share one group.
      if (!lastWasAgent) current = [];
      const agent = d.value.toLowerCase();
      current.push(agent);
      if (!groups.has(agent)) groups.set(agent, []);
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if ((d.name === 'allow' || d.name === 'disallow') && d.value !== '') {
      for (const agent of current)
        groups.get(agent)!.push({ allow: d.name === 'allow', pattern: d.value });
    }
  }
  return {
    isAllowed(url, userAgent) {
      const rules = (userAgent && groups.get(userAgent.toLowerCase())) || groups.get('*') || [];
      const u = new URL(url);
      const path = u.pathname + u.search;
      let best: Rule | undefined;
      for (const rule of rules) {
        if (!matches(rule.pattern, path)) continue;
        if (
          !best ||
          rule.pattern.length > best.pattern.length ||
          (rule.pattern.length === best.pattern.length && rule.allow)
        ) {
          best = rule;
        }
      }
      return best ? best.allow : true;
    },
  };
}

function matches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const source = body
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  const re = new RegExp(`^${source}${anchored ? '$' : ''}`);
  // Rules may be written percent-encoded or not: match either form of the path.
  return re.test(path) || re.test(safeDecode(path));
}

function safeDecode(s: string): string {
  try {
    return decodeURI(s);
  } catch {
    return s;
  }
}
