import type { Jobs } from '../jobs/jobs.service';
import { analyseAccessibility, analyseSeo, type AnalysisDeps } from './analysis.service';

/** What an analysis job keeps: the address as the user typed it (normalised when fetched). */
export interface AnalysisJobInput {
  url: string;
}

/**
 * The page analyses as jobs (issue 19): they outlive the request, show their stages (fetching,
 * auditing, writing insights) and come back after a reload. Anonymous analyses (spec §6: no
 * token) are jobs without a user, reached by their random id alone; their owner, for the turns
 * between owners and the per-owner caps, is the client's address.
 */
export function registerAnalysisJobs(jobs: Jobs, deps: Omit<AnalysisDeps, 'signal' | 'progress'>) {
  jobs.register<AnalysisJobInput>('accessibility', async (ctx) => ({
    accessibility_analysis: await analyseAccessibility(
      { ...deps, signal: ctx.signal, progress: ctx.progress, owner: ctx.owner },
      ctx.input.url,
    ),
  }));
  jobs.register<AnalysisJobInput>('seo', async (ctx) => ({
    seo_analysis: await analyseSeo(
      { ...deps, signal: ctx.signal, progress: ctx.progress, owner: ctx.owner },
      ctx.input.url,
    ),
  }));
}
