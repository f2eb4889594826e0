import { axeInJsdom } from './audits/accessibility/axe-jsdom-page';
import { auditSeoPage } from './audits/seo/audit-seo-page';
import { pageLinks } from './fetch/page-links';
import type { FetchedResource } from './fetch/safe-fetch';

/**
 * The analysis feature's CPU pool tasks (listed with the others in src/cpu-tasks.ts), apart from
 * index.ts so a worker thread loads only these modules: jsdom parsing of an audited page, and
 * what runs on it (the SEO audits, axe, its links).
 */
export const analysisCpuTasks = {
  auditSeoPage: (a: Parameters<typeof auditSeoPage>[0]) =>
    auditSeoPage({ ...a, page: withBuffer(a.page) }),
  axeInJsdom: (page: FetchedResource) => axeInJsdom(withBuffer(page)),
  pageLinks: (page: FetchedResource) => pageLinks(withBuffer(page)),
};

export type AnalysisCpuTasks = typeof analysisCpuTasks;

/** A page's body arrives as a Uint8Array (structured clone); the parsers expect a Buffer. */
function withBuffer(page: FetchedResource): FetchedResource {
  const b = page.body as Uint8Array;
  return { ...page, body: Buffer.from(b.buffer, b.byteOffset, b.byteLength) };
}
