import {
  ROBOTS_DISALLOW_ALL_MESSAGE,
  type SiteAnalysis,
  type SiteBrokenLink,
  type SiteIssue,
  type SitePageResult,
} from '@inkwell/contract';
import type { LanguageModel, PlannedCalls, WorkHandle } from '../../ai';
import type { PartCache } from '../../jobs';
import { normaliseUrl } from '../analysis.service';
import { insightsCall, writeInsights } from '../insights';
import { crawlSite, type CrawlResult } from './crawl';
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
export interface SiteProgress extends Partial<WorkHandle> {
  stage(name: string, partsLeft?: number, callsAmongThem?: PlannedCalls): void;
  partDone(): void;
}

const PROMPT_MAX_CHARS = 6000;

export async function analyseSite(
  deps: SiteAnalysisDeps,
  input: { url: string; maxPages: number },
  progress: SiteProgress,
): Promise<SiteAnalysis> {
  // Two parts a page (found, audited), one for the insights (a model call, unlike the others);
  // the total shrinks if the site is smaller. The insights call is planned at the size of the
  // prompt the pages audited so far make: the largest allowed (1,500 tokens) made the time left
  // of a small site's audit three times too long.
  const start = normaliseUrl(input.url);
  const pages = new SitePages(deps);
  const plannedInsights = () =>
    insightsCall('site', sitePrompt(start, pages.rows, groupIssues(pages.audits)));
  progress.stage('crawling', input.maxPages * 2 + 1, plannedInsights());
  const crawl = await crawlSite(start, {
    allowHosts: deps.allowHosts,
    maxPages: input.maxPages,
    signal: deps.signal,
    known: pages.known,
    onPage: async (page) => {
      progress.partDone();
      progress.stage('auditing');
      await pages.add(page);
      progress.partDone();
      progress.stage('crawling', undefined, plannedInsights());
    },
  });
  const issues = groupIssues(pages.audits);
  const seen = {
    start_url: crawl.startUrl,
    pages: pages.rows,
    issues,
    disallowed: crawl.disallowed,
    fetched: crawl.report.fetched,
    status_counts: crawl.report.statusCounts(),
    broken_links: crawl.report.brokenLinks(),
  };
  // Nothing audited: say why, and ask no model to write about nothing.
  const notice = nothingAudited(crawl, pages.rows.length);
  if (notice) {
    progress.stage('done', 0);
    return { ...seen, notice, ai_insights: '' };
  }
  progress.stage('writing insights', 1);
  const ai_insights = await writeInsights(
    deps.ai,
    'site',
    sitePrompt(crawl.startUrl, pages.rows, issues, seen.status_counts, seen.broken_links),
    deps.signal,
    // The insights call is timed like every model call of the work: its time left is the call's.
    progress.setQueuedAhead ? (progress as WorkHandle) : undefined,
    deps.owner,
  );
  progress.partDone();
  return { ...seen, ai_insights };
}

/** Why no page was audited, or undefined when some were. */
function nothingAudited(crawl: CrawlResult, audited: number): string | undefined {
  if (audited > 0) return undefined;
  if (crawl.disallowsAll) return ROBOTS_DISALLOW_ALL_MESSAGE;
  if (crawl.disallowed.includes(crawl.startUrl) && crawl.report.fetched.length === 0) {
    return `robots.txt does not allow ${crawl.startUrl}`;
  }
  const counts = Object.entries(crawl.report.statusCounts())
    .map(([status, n]) => `${status === 'no answer' ? 'no answer' : `HTTP ${status}`} ×${n}`)
    .join(', ');
  return `No page of this site answered with an HTML page${counts ? ` (${counts})` : ''}`;
}

/** The findings over the site, capped like the single-page prompt. */
export function sitePrompt(
  start: string,
  pages: SitePageResult[],
  issues: SiteIssue[],
  statusCounts: Record<string, number> = {},
  brokenLinks: SiteBrokenLink[] = [],
): string {
  const avg = (key: 'accessibility_score' | 'seo_score') => {
    const scores = pages.map((p) => p[key]).filter((s): s is number => s !== null);
    return scores.length ? Math.round(scores.reduce((a, b) => a + b, 0) / scores.length) : null;
  };
  let text =
    `Site: ${start}\nPages audited: ${pages.length}\n` +
    `Average accessibility score: ${avg('accessibility_score') ?? 'n/a'}/100\n` +
    `Average SEO score: ${avg('seo_score') ?? 'n/a'}/100\n` +
    `Addresses fetched by status: ${Object.entries(statusCounts)
      .map(([status, n]) => `${status} ×${n}`)
      .join(', ')}\n`;
  for (const b of brokenLinks.slice(0, 10)) {
    text += `- broken link ${b.url} (HTTP ${b.status}) on ${b.linked_from.slice(0, 3).join(', ')}\n`;
  }
  text += 'Issues (pages affected):\n';
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
