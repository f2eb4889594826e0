import type { JobContext, Jobs } from '../jobs';
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
export function registerAnalysisJobs(
  jobs: Jobs,
  deps: Omit<AnalysisDeps, 'signal' | 'progress' | 'owner' | 'lane'>,
) {
  const forJob = (ctx: JobContext<AnalysisJobInput>): AnalysisDeps => ({
    ...deps,
    signal: ctx.signal,
    progress: ctx.progress,
    owner: ctx.owner,
    // Asked without an account: its audits run in the CPU pool's anonymous lane.
    lane: ctx.userId === null ? 'anonymous' : 'signed-in',
  });
  jobs.register<AnalysisJobInput>('accessibility', async (ctx) => ({
    accessibility_analysis: await analyseAccessibility(forJob(ctx), ctx.input.url),
  }));
  jobs.register<AnalysisJobInput>('seo', async (ctx) => ({
    seo_analysis: await analyseSeo(forJob(ctx), ctx.input.url),
  }));
}
