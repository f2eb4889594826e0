export { SITE_PAGES, type SiteServer, startSiteServer } from './site/test-fixtures/site-server';
export { type FixtureServer, startFixtureServer } from './test-fixtures/fixture-server';
