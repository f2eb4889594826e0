export { registerAnalysisJobs } from './analysis.job';
export { analysisRoutes } from './analysis.routes';
export { useSharedBrowsers } from './browser/shared-browser';
export { type FetchedResource } from './fetch/safe-fetch';
export { registerSiteJob } from './site/site-analysis.job';
export { siteAnalysisRoutes } from './site/site-analysis.routes';
