import type { SiteAnalysis, SiteIssue, SitePageResult } from '@inkwell/contract';
import { HttpError } from '../../../lib/http-error';
import type { LanguageModel } from '../../ai/language-model';
import { UnavailableModel } from '../../ai/unavailable-model';
import { analyseAccessibility, analyseSeo, normaliseUrl } from '../analysis.service';
import { writeInsights } from '../insights';
import { crawlSite } from './crawl';
import { groupIssues, type PageAudits } from './group-issues';

/**
 * A whole site: crawl it, run both single-page audits on every page, group what repeats, then one
 * model call over the whole. The per-page audits get a model that is never available, so they
 * make no model call of their own: one prompt about the site says more than fifty about pages.
 */
export interface SiteAnalysisDeps {
  ai: LanguageModel;
  allowHosts: readonly string[];
  chromiumPath?: string;
  signal?: AbortSignal;
  /** Whose analysis it is (the job's owner), for the model's turns between owners. */
  owner?: string;
}

/** What the analysis tells whoever follows it (a job's WorkProgress). */
export interface SiteProgress {
  stage(name: string, partsLeft?: number): void;
  partDone(): void;
}

const NO_PAGE_MODEL = new UnavailableModel('site analysis writes its insights once for the site');
const PROMPT_MAX_CHARS = 6000;

export async function analyseSite(
  deps: SiteAnalysisDeps,
  input: { url: string; maxPages: number },
  progress: SiteProgress,
): Promise<SiteAnalysis> {
  progress.stage('crawling', input.maxPages);
  const crawl = await crawlSite(normaliseUrl(input.url), {
    allowHosts: deps.allowHosts,
    maxPages: input.maxPages,
    signal: deps.signal,
    onPage: () => progress.partDone(),
  });
  // One more part after the pages: the insights.
  progress.stage('auditing', crawl.pages.length + 1);
  const pageDeps = { ...deps, ai: NO_PAGE_MODEL };
  const audited: PageAudits[] = [];
  const pages: SitePageResult[] = [];
  for (const url of crawl.pages) {
    const [accessibility, seo] = [
      await settle(analyseAccessibility(pageDeps, url)),
      await settle(analyseSeo(pageDeps, url)),
    ];
    deps.signal?.throwIfAborted();
    audited.push({ url, accessibility: accessibility.value, seo: seo.value });
    const error = accessibility.error ?? seo.error;
    pages.push({
      url,
      accessibility_score: accessibility.value?.score ?? null,
      seo_score: seo.value?.score ?? null,
      ...(error ? { error } : {}),
    });
    progress.partDone();
  }
  const issues = groupIssues(audited);
  progress.stage('writing insights');
  const ai_insights = await writeInsights(
    deps.ai,
    'site',
    sitePrompt(crawl.startUrl, pages, issues),
    deps.signal,
    undefined,
    deps.owner,
  );
  progress.partDone();
  return { start_url: crawl.startUrl, pages, issues, disallowed: crawl.disallowed, ai_insights };
}

/** A page that cannot be audited (it went away, it timed out) costs its row, not the site. */
async function settle<T>(work: Promise<T>): Promise<{ value?: T; error?: string }> {
  try {
    return { value: await work };
  } catch (err) {
    if (err instanceof HttpError) return { error: err.message };
    throw err;
  }
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
