import { ApiError } from '../../lib/api-client';

/** The analyses a web address can get: one page's accessibility or SEO, or the whole site. */
export type UrlAnalysisKind = 'accessibility' | 'seo' | 'site';

/** What the chat says when an analysis (of a page or a site) fails or brings no insights. */
export const ANALYSIS_MESSAGES = {
  failed: 'Failed to perform analysis due to an error.',
  noInsights: 'Analysis completed, but no detailed insights available.',
} as const;

/** The spec's failure text, then the server's own words ("Could not resolve the host name …"). */
export function analysisFailedText(err: unknown): string {
  const detail = err instanceof ApiError ? (err.serverMessage ?? err.message) : '';
  return detail ? `${ANALYSIS_MESSAGES.failed} ${detail}` : ANALYSIS_MESSAGES.failed;
}
