import { z } from 'zod';
import { analysisRequestSchema } from './analysis';

/**
 * Site analysis (issue 22): POST /api/site-analysis, auth, form fields `url` and `max_pages`
 * (1–50, default 10). Crawls one origin (robots.txt obeyed, sitemap.xml first, then links breadth
 * first), audits every page for accessibility and SEO, groups the issues found on several pages
 * and asks the model once for advice over the whole. It runs as a job of kind `site`: with
 * `Accept: text/event-stream` it streams progress (stages `crawling`, `auditing`,
 * `writing insights`; done/total count page steps) then `done` with the answer below.
 * `pages` are the pages audited: those that answered 2xx with HTML. Every other address fetched
 * is in `fetched` and `status_counts`, and a link that answered 4xx/5xx in `broken_links`.
 */
export const SITE_MAX_PAGES = 50;
export const SITE_DEFAULT_PAGES = 10;

export const siteAnalysisRequestSchema = z.object({
  url: analysisRequestSchema.shape.url,
  max_pages: z.coerce
    .number({ message: `max_pages: a whole number from 1 to ${SITE_MAX_PAGES}` })
    .int(`max_pages: a whole number from 1 to ${SITE_MAX_PAGES}`)
    .min(1, `max_pages: a whole number from 1 to ${SITE_MAX_PAGES}`)
    .max(SITE_MAX_PAGES, `max_pages: a whole number from 1 to ${SITE_MAX_PAGES}`)
    .default(SITE_DEFAULT_PAGES),
});
export type SiteAnalysisRequest = z.input<typeof siteAnalysisRequestSchema>;

export const sitePageResultSchema = z.object({
  url: z.string(),
  /** 0–100; null when the page could not be audited (see `error`). */
  accessibility_score: z.number().int().min(0).max(100).nullable(),
  seo_score: z.number().int().min(0).max(100).nullable(),
  error: z.string().optional(),
});
export type SitePageResult = z.infer<typeof sitePageResultSchema>;

export const siteIssueSchema = z.object({
  audit: z.enum(['accessibility', 'seo']),
  /** axe rule id or SEO audit id. */
  id: z.string(),
  description: z.string(),
  /** How many of the audited pages have it, and which. */
  pages_affected: z.number().int().min(1),
  pages: z.array(z.string()),
});
export type SiteIssue = z.infer<typeof siteIssueSchema>;

/** A same-origin link that answered an error (4xx/5xx), with the pages that link to it. */
export const siteBrokenLinkSchema = z.object({
  url: z.string(),
  status: z.number().int(),
  /** The audited pages whose links lead there ("sitemap.xml" when the sitemap lists it). */
  linked_from: z.array(z.string()),
});
export type SiteBrokenLink = z.infer<typeof siteBrokenLinkSchema>;

/** One address the crawl fetched and how it answered. */
export const siteFetchSchema = z.object({
  url: z.string(),
  /** The HTTP status after redirects; null when the address did not answer. */
  status: z.number().int().nullable(),
  /** Whether it answered with an HTML page (only those are audited). */
  html: z.boolean(),
});
export type SiteFetch = z.infer<typeof siteFetchSchema>;

/** What the crawl said when there was nothing to audit (robots.txt, no page answering). */
export const ROBOTS_DISALLOW_ALL_MESSAGE = 'robots.txt does not allow any page of this site';

export const siteAnalysisSchema = z.object({
  /** The address the crawl started from, after redirects. */
  start_url: z.string(),
  pages: z.array(sitePageResultSchema),
  /** Every issue once, most widespread first. */
  issues: z.array(siteIssueSchema),
  /** Same-origin addresses robots.txt disallowed: never fetched. */
  disallowed: z.array(z.string()),
  /** Every address the crawl fetched, in order (robots.txt and sitemap.xml aside). */
  fetched: z.array(siteFetchSchema).optional(),
  /** How many fetched addresses answered each status ("no answer" for none). */
  status_counts: z.record(z.string(), z.number().int()).optional(),
  /** Links of the site's pages that answered 4xx/5xx. */
  broken_links: z.array(siteBrokenLinkSchema).optional(),
  /**
   * Set when no page could be audited, saying why (ROBOTS_DISALLOW_ALL_MESSAGE, or that no
   * address answered with an HTML page); no model is asked then, and `ai_insights` is empty.
   */
  notice: z.string().optional(),
  ai_insights: z.string(),
});
export type SiteAnalysis = z.infer<typeof siteAnalysisSchema>;

export const siteAnalysisResponseSchema = z.object({ site_analysis: siteAnalysisSchema });
export type SiteAnalysisResponse = z.infer<typeof siteAnalysisResponseSchema>;
