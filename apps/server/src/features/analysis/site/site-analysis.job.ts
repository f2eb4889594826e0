import type { SiteAnalysisResponse } from '@inkwell/contract';
import type { LanguageModel } from '../../ai';
import type { Jobs } from '../../jobs';
import { analyseSite } from './site-analysis.service';

/** What a `site` job stores: enough to run it again in any process after a crash. */
export interface SiteJobInput {
  url: string;
  max_pages: number;
}

export function registerSiteJob(
  jobs: Jobs,
  deps: { ai: LanguageModel; allowHosts: readonly string[]; chromiumPath?: string },
) {
  jobs.register<SiteJobInput>('site', async (ctx): Promise<SiteAnalysisResponse> => ({
    site_analysis: await analyseSite(
      { ...deps, signal: ctx.signal, owner: ctx.owner, parts: ctx.parts },
      { url: ctx.input.url, maxPages: ctx.input.max_pages },
      ctx.progress,
    ),
  }));
}
