import { z } from 'zod';
import { analysisRequestSchema } from './analysis';

/**
 * Site analysis (issue 22): POST /api/site-analysis, auth, form fields `url` and `max_pages`
 * (1–50, default 10). Crawls one origin (robots.txt obeyed, sitemap.xml first, then links breadth
 * first), audits every page for accessibility and SEO, groups the issues found on several pages
 * and asks the model once for advice over the whole. It runs as a job of kind `site`: with
 * `Accept: text/event-stream` it streams progress (stages `crawling`, `auditing`,
 * `writing insights`; done/total count page steps) then `done` with the answer below.
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

export const siteAnalysisSchema = z.object({
  /** The address the crawl started from, after redirects. */
  start_url: z.string(),
  pages: z.array(sitePageResultSchema),
  /** Every issue once, most widespread first. */
  issues: z.array(siteIssueSchema),
  /** Same-origin addresses robots.txt disallowed: never fetched. */
  disallowed: z.array(z.string()),
  ai_insights: z.string(),
});
export type SiteAnalysis = z.infer<typeof siteAnalysisSchema>;

export const siteAnalysisResponseSchema = z.object({ site_analysis: siteAnalysisSchema });
export type SiteAnalysisResponse = z.infer<typeof siteAnalysisResponseSchema>;
