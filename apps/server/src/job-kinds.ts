import type { FastifyInstance } from 'fastify';
import { registerAnalysisJobs, registerSiteJob } from './features/analysis';
import {
  registerAskFilesJob,
  registerDocumentJobs,
  embedderFromConfig,
} from './features/documents';

/**
 * Every kind of job, in one place: each feature's `<name>.job.ts`. An app server (app.ts) and the
 * worker (worker-app.ts) both call this, so any process that runs jobs knows them all; no route
 * plugin registers a kind, and the worker needs no routes to run them.
 */
export function registerJobKinds(app: FastifyInstance) {
  const { config } = app;
  const files = { db: app.db, dialect: app.dialect, storage: app.storage };
  const embeddings = embedderFromConfig(config);
  // documents.job.ts: summarize, translate, proofread, sentiment, ask.
  registerDocumentJobs(app.jobs, files, app.ai, {
    summaryMaxTokens: config.SUMMARY_MAX_TOKENS,
    askMaxPassageTokens: config.ASK_MAX_PASSAGE_TOKENS,
    embeddings,
    warmUpProofreading: config.PROOFREAD_WARM_UP === 'on',
  });
  // documents/knowledge/ask-files.job.ts: ask_files (questions across files).
  registerAskFilesJob(
    app.jobs,
    { db: app.db, dialect: app.dialect, ai: app.ai },
    { askMaxPassageTokens: config.ASK_MAX_PASSAGE_TOKENS, embeddings },
  );
  const analysis = {
    ai: app.ai,
    allowHosts: config.FETCH_ALLOW_HOSTS,
    chromiumPath: config.CHROMIUM_PATH,
  };
  // analysis.job.ts: accessibility, seo; site/site-analysis.job.ts: site.
  registerAnalysisJobs(app.jobs, analysis);
  registerSiteJob(app.jobs, analysis);
}
