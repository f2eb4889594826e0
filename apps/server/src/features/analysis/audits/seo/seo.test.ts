import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { analyseSeo } from '../../analysis.service';
import { parsePage } from '../../fetch/page-document';
import { extraSeoAudits, weightedScore } from './seo-extra-audits';
import { BLOCKING_ROBOTS, INVALID_ROBOTS, VALID_ROBOTS } from '../../test-fixtures/pages';
import { startFixtureServer, type FixtureServer } from '../../test-fixtures/fixture-server';
import { noModel } from '../../test-fixtures/no-model';

let server: FixtureServer;
const deps = { ai: noModel, allowHosts: ['127.0.0.1'] };

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.robots.status = 200;
  server.robots.body = VALID_ROBOTS;
});

async function verdicts(path: string) {
  const result = await analyseSeo(deps, `${server.origin}${path}`);
  return {
    result,
    passed: Object.fromEntries(result.audits.map((a) => [a.id, a.passed])),
    audit: (id: string) => result.audits.find((a) => a.id === id)!,
  };
}

const LIGHTHOUSE_IDS = [
  'is-crawlable',
  'document-title',
  'meta-description',
  'http-status-code',
  'link-text',
  'crawlable-anchors',
  'robots-txt',
  'image-alt',
  'hreflang',
  'canonical',
  'structured-data',
];
const EXTRA_IDS = [
  'heading-outline',
  'single-h1',
  'open-graph',
  'twitter-card',
  'title-length',
  'meta-description-length',
  'thin-content',
  'mixed-content',
  'viewport',
];

describe('SEO audits', () => {
  it('passes every audit on the clean page, with a score of 100', async () => {
    const { result } = await verdicts('/clean');
    expect(result.audits.map((a) => a.id)).toEqual([...LIGHTHOUSE_IDS, ...EXTRA_IDS]);
    expect(result.audits.filter((a) => !a.passed)).toEqual([]);
    expect(result.score).toBe(100);
    expect(result.url).toBe(`${server.origin}/clean`);
  });

  it('fails each defect on the defects page', async () => {
    const { result, passed, audit } = await verdicts('/defects');
    expect(passed).toMatchObject({
      'is-crawlable': false,
      'document-title': false, // the page's script that sets a title never ran
      'meta-description': false,
      'http-status-code': true,
      'link-text': false,
      'crawlable-anchors': false,
      'robots-txt': true,
      'image-alt': false,
      hreflang: false,
      canonical: false,
      'structured-data': false,
      'heading-outline': false,
      'single-h1': false,
      'open-graph': false,
      'twitter-card': false,
      'thin-content': false,
      'mixed-content': true,
      viewport: false,
    });
    // A failure's title says what is wrong, a pass's what is right.
    expect(audit('twitter-card').title).toBe('Twitter card tag is missing');
    // One finding per fault: no title and no description are not also "lengths outside limits".
    expect(passed).not.toHaveProperty('title-length');
    expect(passed).not.toHaveProperty('meta-description-length');
    expect(audit('is-crawlable').title).toBe('Page is blocked from indexing');
    expect(audit('http-status-code').title).toBe('Page has successful HTTP status code');
    expect(audit('is-crawlable').details).toMatch(/noindex/);
    expect(audit('link-text').details).toMatch(/"click here"/);
    expect(audit('crawlable-anchors').details).toMatch(/2 uncrawlable/);
    expect(audit('canonical').details).toBe('Is not an absolute URL (/relative-canonical)');
    expect(audit('hreflang').details).toMatch(/Unexpected language code "english".*Relative href/);
    expect(audit('structured-data').details).toMatch(/invalid JSON/);
    expect(audit('heading-outline').details).toMatch(/h1 → h4/);
    // Lighthouse's weights: is-crawlable (4.04) + 7 failing of 9 scored ones → 2 / 13.04.
    expect(result.score).toBe(Math.round((2 / (4.043478261 + 9)) * 100));
  });

  it('reads X-Robots-Tag, and only fails when every crawler is blocked', async () => {
    expect((await verdicts('/noindex-header')).audit('is-crawlable')).toMatchObject({
      passed: false,
      details: expect.stringMatching(/X-Robots-Tag: noindex/),
    });
    const googleOnly = (await verdicts('/googlebot-only-header')).audit('is-crawlable');
    expect(googleOnly.passed).toBe(true);
    expect(googleOnly.details).toMatch(/crawlers are blocked: Googlebot/);
  });

  it('fails is-crawlable when robots.txt disallows the page', async () => {
    server.robots.body = BLOCKING_ROBOTS;
    const { audit, result } = await verdicts('/clean');
    // The title says it is blocked; the details only why (no "blocked: blocked: ..." in the list).
    expect(audit('is-crawlable')).toMatchObject({
      passed: false,
      title: 'Page is blocked from indexing',
      details: 'robots.txt disallows this page',
    });
    expect(audit('robots-txt').passed).toBe(true);
    expect(result.score).toBe(Math.round((9 / (4.043478261 + 9)) * 100));
  });

  it('validates robots.txt like Lighthouse', async () => {
    server.robots.body = INVALID_ROBOTS;
    const invalid = (await verdicts('/clean')).audit('robots-txt');
    expect(invalid.passed).toBe(false);
    expect(invalid.details).toMatch(
      /3 error\(s\).*No user-agent specified.*Syntax not understood.*Invalid sitemap URL/,
    );
    server.robots.status = 404;
    expect((await verdicts('/clean')).audit('robots-txt')).toMatchObject({
      passed: true,
      details: expect.stringMatching(/not applicable/),
    });
    server.robots.status = 503;
    expect((await verdicts('/clean')).audit('robots-txt')).toMatchObject({
      passed: false,
      details: 'Request for robots.txt returned HTTP status: 503',
    });
  });

  it('fails http-status-code on a 404 page', async () => {
    expect((await verdicts('/missing')).audit('http-status-code')).toMatchObject({
      passed: false,
      details: expect.stringMatching(/HTTP 404/),
    });
  });

  it('finds mixed content on an HTTPS page (parsed offline)', () => {
    const body = Buffer.from(
      '<!doctype html><img src="http://cdn.example/a.png" alt="a"><script src="/ok.js"></script>',
    );
    const dom = parsePage({ url: 'https://site.example/page', body, contentType: 'text/html' });
    const audits = extraSeoAudits({
      url: 'https://site.example/page',
      status: 200,
      rawHeaders: [],
      document: dom.window.document,
      robots: {},
    });
    expect(audits.find((a) => a.id === 'mixed-content')).toMatchObject({
      passed: false,
      details: expect.stringMatching(/1 resource.*http:\/\/cdn\.example\/a\.png/),
    });
  });

  const outline = (html: string) => {
    const dom = parsePage({
      url: 'https://site.example/',
      body: Buffer.from(html),
      contentType: 'text/html',
    });
    return extraSeoAudits({
      url: 'https://site.example/',
      status: 200,
      rawHeaders: [],
      document: dom.window.document,
      robots: {},
    }).find((a) => a.id === 'heading-outline')!;
  };

  it("follows Lighthouse's heading-order: levels go down one at a time from h1", () => {
    const early = outline('<h3>Latest news</h3><h1>Home</h1><h2>About</h2>');
    expect(early).toMatchObject({
      passed: false,
      title: 'Heading elements are not in a sequentially-descending order',
    });
    expect(early.details).toMatch(/h3 first \("Latest news"\)/);
    expect(outline('<h1>Home</h1><h3>Deep</h3>').details).toMatch(/h1 → h3/);
    expect(outline('<h1>Home</h1><h2>A</h2><h3>B</h3><h2>C</h2><h1>Again</h1>')).toMatchObject({
      passed: true,
      title: 'Heading elements appear in a sequentially-descending order',
    });
  });

  it('scores like Lighthouse: not-applicable and zero-weight audits are left out', () => {
    expect(
      weightedScore([
        { weight: 4.043478261, applicable: true, passed: false },
        { weight: 1, applicable: true, passed: true },
      ]),
    ).toBe(20);
    expect(
      weightedScore([
        { weight: 1, applicable: false, passed: false },
        { weight: 0, applicable: true, passed: false },
      ]),
    ).toBe(100);
  });
});
