import { z } from 'zod';

/**
 * Page analysis (spec §7): POST /api/accessibility-analysis and POST /api/seo-analysis, both with a
 * form field `url` and no token. The answers are pinned by issue 6.
 */
export const analysisRequestSchema = z.object({
  url: z.string().trim().min(1, 'Enter the address of a page').max(2048, 'The address is too long'),
});
export type AnalysisRequest = z.infer<typeof analysisRequestSchema>;

export const axeImpactSchema = z.enum(['minor', 'moderate', 'serious', 'critical']);
export type AxeImpact = z.infer<typeof axeImpactSchema>;

export const accessibilityViolationSchema = z.object({
  /** axe rule id, e.g. "image-alt". */
  id: z.string(),
  impact: axeImpactSchema.nullable(),
  description: z.string(),
  help_url: z.string(),
  /** Number of offending elements. */
  count: z.number().int(),
  /** CSS selectors of a few offending elements. */
  examples: z.array(z.string()),
  /** The offending elements (up to 20): axe's selector and the start of the element's HTML. */
  nodes: z.array(z.object({ selector: z.string(), snippet: z.string() })).optional(),
});
export type AccessibilityViolation = z.infer<typeof accessibilityViolationSchema>;

/** Where axe ran: headless Chromium (every rule) or jsdom (no layout: see not_checked). */
export const analysisModeSchema = z.enum(['chromium', 'jsdom']);
export type AnalysisMode = z.infer<typeof analysisModeSchema>;

export const accessibilityAnalysisSchema = z.object({
  url: z.string(),
  /** 0–100, weighted like Lighthouse's accessibility score. */
  score: z.number().int().min(0).max(100),
  violations: z.array(accessibilityViolationSchema),
  /** Number of rules that passed. */
  passes: z.number().int(),
  /** Number of rules axe could not decide (need a human look). */
  incomplete: z.number().int(),
  /** Rules that need a rendering engine and were not run (jsdom mode): never counted as passed. */
  not_checked: z.array(z.string()).optional(),
  /** Which engine ran the rules. */
  mode: analysisModeSchema.optional(),
  ai_insights: z.string(),
});
export type AccessibilityAnalysis = z.infer<typeof accessibilityAnalysisSchema>;

export const accessibilityAnalysisResponseSchema = z.object({
  accessibility_analysis: accessibilityAnalysisSchema,
});
export type AccessibilityAnalysisResponse = z.infer<typeof accessibilityAnalysisResponseSchema>;

export const seoAuditSchema = z.object({
  /** Lighthouse's audit id where Lighthouse has the audit (e.g. "is-crawlable"), ours otherwise. */
  id: z.string(),
  /** What passing looks like when passed, what is wrong when failed (Lighthouse's failureTitle). */
  title: z.string(),
  passed: z.boolean(),
  /** Why it failed, or what was found. */
  details: z.string(),
});
export type SeoAudit = z.infer<typeof seoAuditSchema>;

export const seoAnalysisSchema = z.object({
  url: z.string(),
  /** 0–100, weighted like Lighthouse's SEO score. */
  score: z.number().int().min(0).max(100),
  audits: z.array(seoAuditSchema),
  ai_insights: z.string(),
});
export type SeoAnalysis = z.infer<typeof seoAnalysisSchema>;

export const seoAnalysisResponseSchema = z.object({ seo_analysis: seoAnalysisSchema });
export type SeoAnalysisResponse = z.infer<typeof seoAnalysisResponseSchema>;
