import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  progressEventSchema,
  siteAnalysisResponseSchema,
  type SiteAnalysis,
} from '@inkwell/contract';
import { openEventStream } from '../../../../test/event-stream-client';
import { startOpenAITestServer, type OpenAITestServer } from '../../../../test/openai-test-server';
import { registerUser, startTestServer, type TestServer } from '../../../../test/test-app';
import { SITE_PAGES, startSiteServer, type SiteServer } from './test-fixtures/site-server';

/**
 * POST /api/site-analysis over real HTTP against a loopback site: what is crawled (robots.txt,
 * sitemap, links, one origin, max_pages), how issues are grouped, the job's progress stream, and
 * the errors before the work starts. The "external" origin is another loopback server that
 * records every request: it must get none.
 */
let external: Server;
const externalHits: string[] = [];
let site: SiteServer;
let app: TestServer;
let token: string;

beforeAll(async () => {
  external = createServer((req, res) => {
    externalHits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>Elsewhere</title><a href="/more">more</a>');
  });
  await new Promise<void>((r) => external.listen(0, '127.0.0.1', r));
  const port = (external.address() as AddressInfo).port;
  site = await startSiteServer(`http://127.0.0.1:${port}`);
  app = await startTestServer({ env: { FETCH_ALLOW_HOSTS: '127.0.0.1' } });
  token = (await registerUser(app)).token;
});
afterAll(async () => {
  await app?.close();
  await site?.close();
  await new Promise((r) => external?.close(r));
});

const post = (server: TestServer, json: unknown, auth = token) =>
  server.request('/api/site-analysis', { method: 'POST', json, token: auth });

async function analyse(json: unknown, server = app): Promise<SiteAnalysis> {
  const res = await post(server, json);
  expect(res.status).toBe(200);
  return siteAnalysisResponseSchema.parse(await res.json()).site_analysis;
}

const paths = (urls: string[]) => urls.map((u) => new URL(u).pathname);

describe('POST /api/site-analysis', () => {
  it('crawls the site: sitemap then links, robots.txt obeyed, one origin only', async () => {
    const result = await analyse({ url: `${site.origin}/` });
    // Start page, the sitemap's allowed page, then links breadth first.
    expect(paths(result.pages.map((p) => p.url))).toEqual(SITE_PAGES);
    expect(paths(result.disallowed).sort()).toEqual(['/private/hidden', '/private/secret']);
    expect(site.hits.some((h) => h.startsWith('/private'))).toBe(false);
    expect(externalHits).toEqual([]);
    for (const page of result.pages) {
      expect(page.accessibility_score).toEqual(expect.any(Number));
      expect(page.seo_score).toEqual(expect.any(Number));
      expect(page.error).toBeUndefined();
    }
    // No model: the findings still come, and the insights say why there is no advice.
    expect(result.ai_insights).toMatch(/AI insights are unavailable/);
  });

  it('groups an issue repeated across pages once, with the pages that have it', async () => {
    const result = await analyse({ url: site.origin });
    const imageAlt = result.issues.filter(
      (i) => i.audit === 'accessibility' && i.id === 'image-alt',
    );
    expect(imageAlt).toHaveLength(1);
    expect(imageAlt[0]).toMatchObject({ audit: 'accessibility', pages_affected: 4 });
    // /about is the one page with no image.
    expect(paths(imageAlt[0]!.pages).sort()).toEqual(
      SITE_PAGES.filter((p) => p !== '/about').sort(),
    );
    // The SEO audit of the same name is its own issue, found on the same pages.
    const seoImageAlt = result.issues.find((i) => i.audit === 'seo' && i.id === 'image-alt');
    expect(seoImageAlt?.pages.sort()).toEqual([...imageAlt[0]!.pages].sort());
    const description = result.issues.find((i) => i.audit === 'seo' && i.id === 'meta-description');
    expect(description?.pages_affected).toBe(SITE_PAGES.length);
    // Most widespread first.
    const counts = result.issues.map((i) => i.pages_affected);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const keys = result.issues.map((i) => `${i.audit}:${i.id}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('stops at max_pages, sent as a form field', async () => {
    const res = await app.request('/api/site-analysis', {
      method: 'POST',
      token,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ url: site.origin, max_pages: '2' }).toString(),
    });
    expect(res.status).toBe(200);
    const { site_analysis } = siteAnalysisResponseSchema.parse(await res.json());
    expect(paths(site_analysis.pages.map((p) => p.url))).toEqual(['/', '/about']);
  });

  it('streams the job: its id, progress through crawling and auditing, then the summary', async () => {
    // The one fetch of /contact waits until the test has seen the stage it is in.
    const crawlHold = site.hold('/contact', site.hits.filter((h) => h === '/contact').length + 1);
    const body = Buffer.from(new URLSearchParams({ url: site.origin }).toString());
    const stream = await openEventStream(app.url, {
      path: '/api/site-analysis',
      token,
      body: { contentType: 'application/x-www-form-urlencoded', bytes: body },
    });
    expect(stream.status).toBe(200);
    const { id } = (await stream.waitFor((e) => e.event === 'job')).data as { id: string };
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const stage = (name: string) => (e: { event: string; data: unknown }) =>
      e.event === 'progress' && (e.data as { stage: string }).stage === name;

    await crawlHold.reached;
    const crawling = progressEventSchema.parse(
      (await stream.waitFor((e) => stage('crawling')(e) && (e.data as { done: number }).done === 6))
        .data,
    );
    // Two parts a page (found, audited) of max_pages (10 by default), and the insights; the
    // three pages before /contact are found and audited.
    expect(crawling.total).toBe(21);
    crawlHold.release();

    const done = await stream.waitFor((e) => e.event === 'done');
    const { site_analysis } = siteAnalysisResponseSchema.parse(done.data);
    expect(site_analysis.pages).toHaveLength(SITE_PAGES.length);
    await stream.ended;

    const job = await app.request(`/api/jobs/${id}`, { token });
    expect(await job.json()).toMatchObject({
      kind: 'site',
      state: 'done',
      about: { url: site.origin },
    });
  }, 60_000);

  it('answers 401 without a token', async () => {
    const res = await post(app, { url: site.origin }, '');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: expect.any(String) });
  });

  it.each([
    [{}, 'url: a web address is required'],
    [{ url: '  ' }, 'url: Enter the address of a page'],
    [{ url: 'http://127.0.0.1/', max_pages: 0 }, 'max_pages: a whole number from 1 to 50'],
    [{ url: 'http://127.0.0.1/', max_pages: 51 }, 'max_pages: a whole number from 1 to 50'],
    [{ url: 'http://127.0.0.1/', max_pages: 2.5 }, 'max_pages: a whole number from 1 to 50'],
    [{ url: 'http://127.0.0.1/', max_pages: 'ten' }, 'max_pages: a whole number from 1 to 50'],
    [
      { url: 'javascript:alert(1)' },
      'Refused to fetch javascript: addresses: only http and https are supported.',
    ],
    [{ url: 'example' }, 'Enter a full web address, e.g. https://example.com/'],
  ])('answers 400 on %j', async (json, error) => {
    const res = await post(app, json);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error });
  });

  it('refuses a private address like the single-page analysis', async () => {
    const guarded = await startTestServer();
    try {
      const user = await registerUser(guarded);
      const res = await guarded.request('/api/site-analysis', {
        method: 'POST',
        token: user.token,
        json: { url: site.origin },
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(/loopback/);
    } finally {
      await guarded.close();
    }
  });
});

describe('site insights with a model', () => {
  let model: OpenAITestServer;
  let withModel: TestServer;
  beforeAll(async () => {
    model = await startOpenAITestServer({ reply: () => '1. Add alt text in the page template.' });
    withModel = await startTestServer({
      env: { FETCH_ALLOW_HOSTS: '127.0.0.1', AI_BASE_URL: model.url },
    });
  });
  afterAll(async () => {
    await withModel?.close();
    await model?.close();
  });

  it('makes one model call over the whole site, from the grouped findings', async () => {
    const user = await registerUser(withModel);
    const res = await withModel.request('/api/site-analysis', {
      method: 'POST',
      token: user.token,
      json: { url: site.origin, max_pages: 3 },
    });
    expect(res.status).toBe(200);
    const { site_analysis } = siteAnalysisResponseSchema.parse(await res.json());
    expect(site_analysis.ai_insights).toBe('1. Add alt text in the page template.');
    expect(model.requests).toHaveLength(1);
    const prompt = JSON.stringify(model.requests[0]!.messages);
    expect(prompt).toMatch(/\[accessibility\] image-alt on 2 of 3 page\(s\)/);
    expect(prompt).toContain('Pages audited: 3');
  });
});
