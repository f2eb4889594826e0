import type { AccessibilityAnalysis, AnalysisMode, SeoAnalysis } from '@inkwell/contract';
import type { LanguageModel, WorkProgress } from '../ai';
import {
  accessibilityScore,
  toViolations,
  type AxeRuleOutcome,
} from './audits/accessibility/accessibility-score';
import { runAxeInChromium } from './browser/axe-chromium';
import type { AxeRun } from './audits/accessibility/axe-jsdom';
import type { Audited } from './audits/audited';
import { findingsPrompt, writeInsights } from './insights';
import { fetchRobotsTxt } from './fetch/fetch-robots-txt';
import { safeFetch, type FetchedResource } from './fetch/safe-fetch';
import { BrowserUnavailable } from './browser/shared-browser';
import type { RobotsTxtResult } from './audits/seo/seo-lighthouse-audits';
import { cpuPool, type CpuLane } from '../../workers/cpu-pool';
import type { AnalysisCpuTasks } from './analysis.cpu';

/** Page analysis: fetch safely, audit, then let the model (if any) turn the findings into advice. */
export interface AnalysisDeps {
  ai: LanguageModel;
  /** FETCH_ALLOW_HOSTS. */
  allowHosts: readonly string[];
  /**
   * The Chromium found at start-up (CHROMIUM_PATH or a usual install path, unless
   * ANALYSIS_BROWSER=off): run axe there instead of jsdom.
   */
  chromiumPath?: string;
  signal?: AbortSignal;
  /** The job's progress: which stage the analysis is in (fetching, auditing, writing insights). */
  progress?: WorkProgress;
  /** Whose analysis it is (the job's owner), for the model's turns between owners. */
  owner?: string;
  /** The CPU pool's lane of its audits: `anonymous` for an analysis asked without an account. */
  lane?: CpuLane;
}

/** "example.com/page" is taken to mean https://example.com/page. */
export function normaliseUrl(input: string): string {
  const trimmed = input.trim();
  return /^[a-z][a-z0-9+.-]*:/i.test(trimmed) && !/^[^:/]+:\d/.test(trimmed)
    ? trimmed
    : `https://${trimmed}`;
}

function fetchPage(deps: AnalysisDeps, url: string): Promise<FetchedResource> {
  deps.progress?.stage('fetching');
  return safeFetch(normaliseUrl(url), {
    allowHosts: deps.allowHosts,
    accept: 'html',
    signal: deps.signal,
  });
}

export async function analyseAccessibility(
  deps: AnalysisDeps,
  url: string,
): Promise<AccessibilityAnalysis> {
  const page = await fetchPage(deps, url);
  deps.progress?.stage('auditing');
  return withInsights(deps, 'accessibility', page, await auditAccessibility(deps, page));
}

/** An audited page's analysis with the model's advice on its findings (the last stage). */
async function withInsights<T extends AccessibilityAnalysis | SeoAnalysis>(
  deps: AnalysisDeps,
  kind: 'accessibility' | 'seo',
  page: FetchedResource,
  { analysis, findings }: Audited<T>,
): Promise<Omit<T, 'ai_insights'> & Pick<T, 'ai_insights'>> {
  deps.progress?.stage('writing insights');
  const ai_insights = await writeInsights(
    deps.ai,
    kind,
    findingsPrompt(page.url, analysis.score, findings),
    deps.signal,
    deps.progress,
    deps.owner,
  );
  return { ...analysis, ai_insights };
}

export type { Audited };

type AuditDeps = Pick<AnalysisDeps, 'allowHosts' | 'chromiumPath' | 'signal' | 'lane'>;

/** The accessibility audit of a page already fetched (the page analysis's, or the site crawl's). */
export async function auditAccessibility(
  deps: AuditDeps,
  page: FetchedResource,
): Promise<Audited<AccessibilityAnalysis>> {
  const run = await axeRun(deps, page);
  const outcomes: AxeRuleOutcome[] = [
    ...run.violations.map((v) => ({ id: v.id, outcome: 'violation' as const })),
    // A rule with both passing and failing elements is a failure: violations come first.
    ...run.passes.map((id) => ({ id, outcome: 'pass' as const })),
  ];
  const score = accessibilityScore(outcomes);
  const violations = toViolations(run.violations);
  const lines = violations.map(
    (v) =>
      `[${v.impact ?? 'unknown'}] ${v.id} on ${v.count} element(s): ${v.description} e.g. ${v.examples.slice(0, 2).join(', ')}`,
  );
  if (run.notChecked.length)
    lines.push(`Not checked without a browser: ${run.notChecked.join(', ')}`);
  if (run.incomplete.length) lines.push(`Need a manual check: ${run.incomplete.join(', ')}`);
  if (violations.length === 0) lines.push('No automated violations found.');
  const analysis = {
    url: page.url,
    score,
    violations,
    passes: run.passes.length,
    incomplete: run.incomplete.length,
    mode: run.mode,
    ...(run.notChecked.length ? { not_checked: run.notChecked } : {}),
  };
  return { analysis, findings: lines };
}

/** Chromium when there is one; jsdom without, or when the browser cannot be started. */
async function axeRun(
  deps: AuditDeps,
  page: FetchedResource,
): Promise<AxeRun & { mode: AnalysisMode }> {
  if (deps.chromiumPath) {
    try {
      return { ...(await chromiumRun(deps, page)), mode: 'chromium' };
    } catch (err) {
      if (!(err instanceof BrowserUnavailable)) throw err;
    }
  }
  return { ...(await jsdomRun(deps, page)), mode: 'jsdom' };
}

/** jsdom and axe in the CPU pool: parsing and auditing a page never blocks the event loop. */
function jsdomRun(deps: AuditDeps, page: FetchedResource): Promise<AxeRun> {
  return cpuPool<AnalysisCpuTasks>().run('axeInJsdom', page, {
    lane: deps.lane,
    signal: deps.signal,
  });
}

function chromiumRun(
  deps: Pick<AnalysisDeps, 'allowHosts' | 'chromiumPath' | 'signal'>,
  page: FetchedResource,
): Promise<AxeRun> {
  return runAxeInChromium(page, {
    executablePath: deps.chromiumPath!,
    signal: deps.signal,
    // Sub-resources go through the same vetting as the page itself.
    fetchAsset: async (assetUrl) => {
      const res = await safeFetch(assetUrl, {
        allowHosts: deps.allowHosts,
        accept: 'any',
        maxBytes: 2 * 1024 * 1024,
        signal: deps.signal,
      });
      return { status: res.status, contentType: res.contentType, body: res.body };
    },
  });
}

export async function analyseSeo(deps: AnalysisDeps, url: string): Promise<SeoAnalysis> {
  const page = await fetchPage(deps, url);
  const robots = await fetchRobotsTxt(page.url, deps);
  deps.progress?.stage('auditing');
  return withInsights(deps, 'seo', page, await auditSeo(page, robots, deps));
}

/** The SEO audits of a page already fetched, with its site's robots.txt as fetched. */
export function auditSeo(
  page: FetchedResource,
  robots: RobotsTxtResult,
  deps: Pick<AnalysisDeps, 'signal' | 'lane'> = {},
): Promise<Audited<SeoAnalysis>> {
  return cpuPool<AnalysisCpuTasks>().run(
    'auditSeoPage',
    { page, robots },
    { lane: deps.lane, signal: deps.signal },
  );
}
