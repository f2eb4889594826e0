import type { SeoAnalysis } from '@inkwell/contract';
import type { Audited } from '../audited';
import { parsePage } from '../../fetch/page-document';
import type { FetchedResource } from '../../fetch/safe-fetch';
import { extraSeoAudits, weightedScore } from './seo-extra-audits';
import { lighthouseSeoAudits, type RobotsTxtResult } from './seo-lighthouse-audits';

/**
 * The SEO audits of a page already fetched, with its site's robots.txt as fetched. Parses the
 * page with jsdom: it runs in the CPU pool (src/cpu-tasks.ts), never on the event loop.
 */
export function auditSeoPage(a: {
  page: FetchedResource;
  robots: RobotsTxtResult;
}): Audited<SeoAnalysis> {
  const { page, robots } = a;
  const dom = parsePage(page);
  let audits;
  try {
    const seoPage = {
      url: page.url,
      status: page.status,
      rawHeaders: page.rawHeaders,
      document: dom.window.document,
      robots,
    };
    // One finding per fault: an extra audit with nothing to judge (no description to measure)
    // is left out, as Lighthouse's own audit reports the fault.
    audits = [
      ...lighthouseSeoAudits(seoPage),
      ...extraSeoAudits(seoPage).filter((a) => a.applicable),
    ];
  } finally {
    dom.window.close();
  }
  const score = weightedScore(audits);
  const lines = audits
    .filter((a) => !a.passed)
    .map(
      (a) =>
        `[${a.weight > 1 ? 'critical' : a.weight > 0 ? 'scored' : 'best practice'}] ${a.id} failed: ${a.details}`,
    );
  if (lines.length === 0) lines.push('Every audit passed.');
  const analysis = {
    url: page.url,
    score,
    audits: audits.map(({ id, title, passed, details }) => ({ id, title, passed, details })),
  };
  return { analysis, findings: lines };
}
