import type { AccessibilityAnalysis, SeoAnalysis, SiteIssue } from '@inkwell/contract';

/** One page's audits, as the single-page analyses answer them (either may have failed). */
export interface PageAudits {
  url: string;
  accessibility?: Pick<AccessibilityAnalysis, 'violations'>;
  seo?: Pick<SeoAnalysis, 'audits'>;
}

/**
 * Every issue once, with the pages that have it: an axe violation or a failed SEO audit found on
 * ten pages is one template problem to fix, not ten. Most widespread first, then by audit and id
 * so the order is stable.
 */
export function groupIssues(pages: PageAudits[]): SiteIssue[] {
  const groups = new Map<string, SiteIssue>();
  const add = (audit: SiteIssue['audit'], id: string, description: string, url: string) => {
    const key = `${audit}:${id}`;
    let group = groups.get(key);
    if (!group) {
      group = { audit, id, description, pages_affected: 0, pages: [] };
      groups.set(key, group);
    }
    if (group.pages.includes(url)) return;
    group.pages.push(url);
    group.pages_affected = group.pages.length;
  };
  for (const page of pages) {
    for (const v of page.accessibility?.violations ?? [])
      add('accessibility', v.id, v.description, page.url);
    for (const a of page.seo?.audits ?? []) if (!a.passed) add('seo', a.id, a.title, page.url);
  }
  return [...groups.values()].sort(
    (a, b) =>
      b.pages_affected - a.pages_affected ||
      a.audit.localeCompare(b.audit) ||
      a.id.localeCompare(b.id),
  );
}
