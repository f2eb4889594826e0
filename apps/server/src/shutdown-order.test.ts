import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEventStream } from '../test/event-stream-client';
import { registerUser, startTestServer, testDialects, type TestServer } from '../test/test-app';
import { findChromium } from './lib/find-chromium';
import { SITE_PAGES, startSiteServer, type SiteServer } from './features/analysis/testing';

/**
 * A server stopped in the middle of a page audit in Chromium (shutdown-order.ts): its jobs are
 * handed over before the browser closes, so the audit is not stored as failed, and no page is
 * kept as "could not be audited"; a second app on the same database resumes the job and audits
 * every page. The pages come from a loopback site whose image is held at a known request, so the
 * server stops while Chromium waits for it (a state, not a time).
 */
const chromiumPath = findChromium(process.env.CHROMIUM_PATH, 'auto');

interface JobView {
  state: string;
  result: Record<string, unknown> | null;
  error: unknown;
}

describe.skipIf(!chromiumPath).each(testDialects())(
  'shutdown in the middle of an audit (%s)',
  (dialect) => {
    let site: SiteServer;
    const servers: TestServer[] = [];
    const env = {
      FETCH_ALLOW_HOSTS: '127.0.0.1',
      ANALYSIS_BROWSER: 'auto',
      CHROMIUM_PATH: chromiumPath!,
    };
    beforeAll(async () => {
      // The "other origin" the site links to: nothing listens there.
      site = await startSiteServer('http://127.0.0.1:9');
    });
    afterAll(async () => {
      // The second app of each pair first: the first one owns the shared data.
      for (const s of servers.reverse()) await s.close();
      await site?.close();
    });

    const photoRequests = () => site.hits.filter((h) => h === '/photo.png').length;

    /**
     * Starts a job on a first app, stops that app while Chromium waits for the page's image (the
     * `nth` request of it from now), and answers the job as a second app on the same database
     * finishes it. On PostgreSQL the second app runs before the first stops (another process takes
     * the job over at once); on SQLite, one process at a time, it is the next start.
     */
    async function stopMidAudit(
      start: (first: TestServer, token: string) => Promise<string>,
      nth: number,
    ): Promise<JobView> {
      const first = await startTestServer({ dialect, env });
      servers.push(first);
      const user = await registerUser(first);
      const hold = site.hold('/photo.png', photoRequests() + nth);
      const id = await start(first, user.token);
      await hold.reached;
      let second: TestServer | undefined;
      if (dialect === 'postgres') {
        second = await startTestServer({ sharing: first, env });
        servers.push(second);
      }
      await first.stop();
      hold.release();
      if (!second) {
        second = await startTestServer({ sharing: first, env });
        servers.push(second);
      }
      const states: string[] = [];
      const read = async () => {
        const res = await second.request(`/api/jobs/${id}`, { token: user.token });
        const job = (await res.json()) as JobView;
        states.push(job.state);
        return job;
      };
      const ended = ['done', 'failed', 'cancelled'];
      await expect
        .poll(async () => ended.includes((await read()).state), { timeout: 90_000 })
        .toBe(true);
      // Never failed on the way: handed over (queued), then run again to its end.
      expect(states).not.toContain('failed');
      const job = await read();
      expect(job.state).toBe('done');
      return job;
    }

    it('a site audit resumes elsewhere and audits every page, reusing only the pages it finished', async () => {
      // The image of /blog (the third page; /about has none): the first two pages are finished.
      const hitsBefore = site.hits.length;
      const job = await stopMidAudit(async (first, token) => {
        const stream = await openEventStream(first.url, {
          path: '/api/site-analysis',
          token,
          body: {
            contentType: 'application/json',
            bytes: Buffer.from(JSON.stringify({ url: site.origin })),
          },
        });
        expect(stream.status).toBe(200);
        return ((await stream.waitFor((e) => e.event === 'job')).data as { id: string }).id;
      }, 2);
      const analysis = (job.result as { site_analysis: { pages: Record<string, unknown>[] } })
        .site_analysis;
      expect(analysis.pages.map((p) => new URL(p.url as string).pathname)).toEqual(SITE_PAGES);
      for (const page of analysis.pages) {
        expect(page.error, String(page.url)).toBeUndefined();
        expect(page.accessibility_score).toEqual(expect.any(Number));
        expect(page.seo_score).toEqual(expect.any(Number));
      }
      // The pages finished before the stop were kept as parts: fetched once, by the first app.
      const hits = site.hits.slice(hitsBefore);
      for (const path of ['/', '/about'])
        expect(
          hits.filter((h) => h === path),
          path,
        ).toHaveLength(1);
      // The page cut in the middle was audited again, by the second.
      expect(hits.filter((h) => h === '/blog')).toHaveLength(2);
    }, 180_000);

    it('an anonymous page analysis resumes elsewhere and ends in Chromium mode', async () => {
      const job = await stopMidAudit(async (first) => {
        const stream = await openEventStream(first.url, {
          path: '/api/accessibility-analysis',
          body: {
            contentType: 'application/json',
            bytes: Buffer.from(JSON.stringify({ url: `${site.origin}/blog` })),
          },
        });
        expect(stream.status).toBe(200);
        return ((await stream.waitFor((e) => e.event === 'job')).data as { id: string }).id;
      }, 1);
      const analysis = (
        job.result as { accessibility_analysis: { mode: string; violations: { id: string }[] } }
      ).accessibility_analysis;
      expect(analysis.mode).toBe('chromium');
      expect(analysis.violations.map((v) => v.id)).toContain('image-alt');
    }, 180_000);
  },
);
