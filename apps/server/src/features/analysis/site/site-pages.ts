import type { SitePageResult } from '@inkwell/contract';
import { HttpError } from '../../../lib/http-error';
import type { PartCache } from '../../jobs';
import { auditAccessibility, auditSeo } from '../analysis.service';
import { BrowserClosed } from '../browser/shared-browser';
import type { CrawledPage, KnownPage } from './crawl';
import type { PageAudits } from './group-issues';

/** What a site job keeps of each page it finished (a job part): enough to skip it on resume. */
interface FinishedPage extends KnownPage {
  row: SitePageResult;
  audits: PageAudits;
}

/** A page whose audit failed for a reason we do not show users (a browser or axe error). */
export const PAGE_AUDIT_FAILED = 'This page could not be audited.';

export interface SitePagesDeps {
  allowHosts: readonly string[];
  chromiumPath?: string;
  signal?: AbortSignal;
  /** The job's finished parts: pages audited by an earlier run (a crashed or stopped process). */
  parts?: PartCache;
}

/**
 * The pages of a site audit: each audited both ways from the one fetch of the crawl, its row and
 * findings kept in order, and kept as a job part, so a job taken over after a crash resumes
 * without fetching or auditing them again. A page that cannot be audited costs its row, not the
 * site.
 */
export class SitePages {
  readonly rows: SitePageResult[] = [];
  readonly audits: PageAudits[] = [];
  private readonly finished = new Map<string, FinishedPage>();

  constructor(private readonly deps: SitePagesDeps) {}

  /** A page an earlier run finished (for the crawl's `known`). */
  readonly known = async (url: string): Promise<KnownPage | undefined> => {
    const stored = await this.deps.parts?.get(partKey(url));
    if (!stored) return undefined;
    const page = JSON.parse(stored) as FinishedPage;
    this.finished.set(url, page);
    return { url: page.url, links: page.links };
  };

  /** A page the crawl found (for the crawl's `onPage`): audited now, or taken from its part. */
  readonly add = async (page: CrawledPage): Promise<void> => {
    let done = page.fetched ? undefined : this.finished.get(page.requested);
    if (!done) {
      done = await this.audit(page);
      await this.deps.parts?.put(partKey(page.requested), JSON.stringify(done));
    }
    this.rows.push(done.row);
    this.audits.push(done.audits);
  };

  private async audit(page: CrawledPage): Promise<FinishedPage> {
    const fetched = page.fetched!;
    const accessibility = await this.settle(() => auditAccessibility(this.deps, fetched));
    const seo = await this.settle(async () => auditSeo(fetched, page.robots, this.deps));
    const error = accessibility.error ?? seo.error;
    return {
      url: page.url,
      links: page.links,
      row: {
        url: page.url,
        accessibility_score: accessibility.value?.analysis.score ?? null,
        seo_score: seo.value?.analysis.score ?? null,
        ...(error ? { error } : {}),
      },
      audits: {
        url: page.url,
        accessibility: accessibility.value && {
          violations: accessibility.value.analysis.violations,
        },
        seo: seo.value && { audits: seo.value.analysis.audits },
      },
    };
  }

  /**
   * Any failure of one page's audit is that page's. Not a stop: a job cancelled or handed over
   * (shutdown), or a browser closed under the page, stops the site with nothing kept of this
   * page, so the run that resumes the job audits it again instead of reusing a failure.
   */
  private async settle<T>(work: () => Promise<T>): Promise<{ value?: T; error?: string }> {
    try {
      return { value: await work() };
    } catch (err) {
      this.deps.signal?.throwIfAborted();
      if (err instanceof BrowserClosed) throw err;
      return { error: err instanceof HttpError ? err.message : PAGE_AUDIT_FAILED };
    }
  }
}

const partKey = (url: string) => `page:${url}`;
