import type { SiteAnalysis, SiteIssue, SitePageResult } from '@inkwell/contract';
import type { LanguageModel } from '../../ai/language-model';
import type { PartCache } from '../../jobs/job-kinds';
import { normaliseUrl } from '../analysis.service';
import { writeInsights } from '../insights';
import { crawlSite } from './crawl';
import { groupIssues } from './group-issues';
import { SitePages } from './site-pages';

/**
 * A whole site: crawl it, audit every page both ways (accessibility and SEO) from the crawl's one
 * fetch of it (site-pages.ts), group what repeats, then one model call over the whole: the pages
 * make no model call of their own, one prompt about the site says more than fifty about pages.
 */
export interface SiteAnalysisDeps {
  ai: LanguageModel;
  allowHosts: readonly string[];
  chromiumPath?: string;
  signal?: AbortSignal;
  /** Whose analysis it is (the job's owner), for the model's turns between owners. */
  owner?: string;
  /** The job's finished parts: pages a run before this one audited. */
  parts?: PartCache;
}

/** What the analysis tells whoever follows it (a job's WorkProgress). */
export interface SiteProgress {
  stage(name: string, partsLeft?: number): void;
  partDone(): void;
}

const PROMPT_MAX_CHARS = 6000;

export async function analyseSite(
  deps: SiteAnalysisDeps,
  input: { url: string; maxPages: number },
  progress: SiteProgress,
): Promise<SiteAnalysis> {
  // Two parts a page (found, audited), one for the insights; the total shrinks if the site is smaller.
  progress.stage('crawling', input.maxPages * 2 + 1);
  const pages = new SitePages(deps);
  const crawl = await crawlSite(normaliseUrl(input.url), {
    allowHosts: deps.allowHosts,
    maxPages: input.maxPages,
    signal: deps.signal,
    known: pages.known,
    onPage: async (page) => {
      progress.partDone();
      progress.stage('auditing');
      await pages.add(page);
      progress.partDone();
      progress.stage('crawling');
    },
  });
  const issues = groupIssues(pages.audits);
  progress.stage('writing insights', 1);
  const ai_insights = await writeInsights(
    deps.ai,
    'site',
    sitePrompt(crawl.startUrl, pages.rows, issues),
    deps.signal,
    undefined,
    deps.owner,
  );
  progress.partDone();
  return {
    start_url: crawl.startUrl,
    pages: pages.rows,
    issues,
    disallowed: crawl.disallowed,
    ai_insights,
  };
}

/** The findings over the site, capped like the single-page prompt. */
export function sitePrompt(start: string, pages: SitePageResult[], issues: SiteIssue[]): string {
  const avg = (key: 'accessibility_score' | 'seo_score') => {
    const scores = pages.map((p) => p[key]).filter((s): s is number => s !== null);
    return scores.length ? Math.round(scores.reduce((a, b) => a + b, 0) / scores.length) : null;
  };
  let text =
    `Site: ${start}\nPages audited: ${pages.length}\n` +
    `Average accessibility score: ${avg('accessibility_score') ?? 'n/a'}/100\n` +
    `Average SEO score: ${avg('seo_score') ?? 'n/a'}/100\nIssues (pages affected):\n`;
  if (issues.length === 0) text += '- none found by the automated audits\n';
  for (const issue of issues) {
    const line = `- [${issue.audit}] ${issue.id} on ${issue.pages_affected} of ${pages.length} page(s): ${issue.description}\n`;
    if (text.length + line.length > PROMPT_MAX_CHARS) {
      text += '- (further issues omitted)\n';
      break;
    }
    text += line;
  }
  return text;
}
