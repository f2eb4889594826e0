import { describe, expect, it } from 'vitest';
import { parsePage } from '../../fetch/page-document';
import { lighthouseSeoAudits, type RobotsTxtResult } from './seo-lighthouse-audits';

// Cases where the benchmark against Lighthouse 12 (bench/analysis.bench.ts) found our verdict
// different, or where Lighthouse's behaviour was checked in Chromium: we give its verdict.
const URL_ = 'http://site.example/articles/page';

function audit(
  id: string,
  content: string,
  opts: {
    head?: string;
    /** Attributes of <html> (default lang="en") and <body>. */
    html?: string;
    body?: string;
    headers?: string[];
    robots?: RobotsTxtResult;
  } = {},
) {
  const html = `<!doctype html><html${opts.html ?? ' lang="en"'}><head><meta charset="utf-8"><title>A page</title>${opts.head ?? ''}</head><body${opts.body ?? ''}>${content}</body></html>`;
  const dom = parsePage({ url: URL_, body: Buffer.from(html), contentType: 'text/html' });
  try {
    const audits = lighthouseSeoAudits({
      url: URL_,
      status: 200,
      rawHeaders: opts.headers ?? [],
      document: dom.window.document,
      robots: opts.robots ?? { status: 404, content: '' },
    });
    return audits.find((a) => a.id === id)!;
  } finally {
    dom.window.close();
  }
}

describe('link-text as Lighthouse reads links', () => {
  it('accepts a URL as link text', () => {
    expect(audit('link-text', '<a href="/x">https://site.example/x</a>').passed).toBe(true);
  });

  it('reads rendered text only: hidden words do not make "click here" descriptive', () => {
    const hidden = '<a href="/x">click here<span style="display:none"> for the guide</span></a>';
    expect(audit('link-text', hidden).passed).toBe(false);
    expect(audit('link-text', '<a href="/x">click here for the guide</a>').passed).toBe(true);
  });

  it("takes the language of the link's own text", () => {
    const body = '<p lang="en">See <a href="/x"><span lang="de">hier</span></a></p>';
    expect(audit('link-text', body, { html: '' }).passed).toBe(false);
  });

  it('looks the page language up as written, like Lighthouse ("EN" has no list)', () => {
    expect(audit('link-text', '<a href="/x">Click here</a>', { html: ' lang="EN"' }).passed).toBe(
      true,
    );
  });

  it('checks SVG links and Tamil phrases', () => {
    const svg = '<svg><a href="/x"><text>click here</text></a></svg>';
    expect(audit('link-text', svg).passed).toBe(false);
    const ta = '<a href="/x">மேலும் அறிக</a>';
    expect(audit('link-text', ta, { html: ' lang="ta"' }).passed).toBe(false);
  });
});

describe('crawlable-anchors as Lighthouse 12 judges them', () => {
  it('lets a placeholder <a> without href pass unless a script handles it', () => {
    expect(audit('crawlable-anchors', '<a>Placeholder</a>').passed).toBe(true);
    expect(audit('crawlable-anchors', '<a onclick="go()">Scripted</a>').passed).toBe(false);
    expect(
      audit('crawlable-anchors', '<div onclick="go()"><a>Scripted parent</a></div>').passed,
    ).toBe(false);
  });

  it("does not count <body onload>, which is the window's handler", () => {
    expect(
      audit('crawlable-anchors', '<a>Placeholder</a>', { body: ' onload="init()"' }).passed,
    ).toBe(true);
  });
});

describe('hreflang and canonical from <link> and the Link header', () => {
  it('ignores hreflang links in the body', () => {
    expect(audit('hreflang', '<link rel="alternate" hreflang="klingon" href="/x">').passed).toBe(
      true,
    );
  });

  it('checks hreflang and canonical given in the Link header', () => {
    expect(
      audit('hreflang', '', {
        headers: ['Link', '</de>; rel="alternate"; hreflang="de"'],
      }).details,
    ).toMatch(/Relative href value "\/de" \(Link header\)/);
    expect(
      audit('hreflang', '', {
        headers: ['Link', '<http://site.example/de>; rel="alternate"; hreflang="de"'],
      }).passed,
    ).toBe(true);
    expect(
      audit('canonical', '', { headers: ['Link', '</relative>; rel="canonical"'] }),
    ).toMatchObject({ passed: false, details: 'Is not an absolute URL (/relative)' });
  });

  it('reads rel case-insensitively, as Lighthouse lowercases it', () => {
    expect(audit('canonical', '', { head: '<link rel="Canonical" href="/x">' }).passed).toBe(false);
  });
});

describe('image-alt as axe (and so Lighthouse) decides it', () => {
  it('fails an alt of spaces only', () => {
    expect(audit('image-alt', '<img src="a.png" alt=" ">').passed).toBe(false);
    expect(audit('image-alt', '<img src="a.png" alt="">').passed).toBe(true);
  });

  it('follows explicit roles: img needs a name, figure is out of the rule', () => {
    expect(audit('image-alt', '<img src="a.png" role="img">').passed).toBe(false);
    expect(audit('image-alt', '<img src="a.png" role="figure">')).toMatchObject({
      passed: true,
      applicable: false,
    });
    expect(audit('image-alt', '<img src="a.png" role="presentation">').passed).toBe(true);
    // A focusable image keeps its role: presentation is ignored.
    expect(audit('image-alt', '<img src="a.png" role="presentation" tabindex="0">').passed).toBe(
      false,
    );
  });

  it('skips images hidden by a style sheet or aria-hidden', () => {
    const head = '<style>.folded { display: none }</style>';
    expect(
      audit('image-alt', '<div class="folded"><img src="a.png"></div>', { head }),
    ).toMatchObject({ applicable: false });
    expect(audit('image-alt', '<img src="a.png" aria-hidden="true">').applicable).toBe(false);
  });
});

describe('document-title and robots-txt', () => {
  it('does not take an SVG title for the document title', () => {
    const svgOnly = audit('document-title', '<svg><title>Logo</title></svg>', { head: '' });
    expect(svgOnly.passed).toBe(true); // the helper's own <title> is there
    const noTitle = '<!doctype html><html><body><svg><title>Logo</title></svg></body></html>';
    const dom = parsePage({ url: URL_, body: Buffer.from(noTitle), contentType: 'text/html' });
    const title = lighthouseSeoAudits({
      url: URL_,
      status: 200,
      rawHeaders: [],
      document: dom.window.document,
      robots: {},
    }).find((a) => a.id === 'document-title')!;
    expect(title.passed).toBe(false);
  });

  it('treats a robots.txt answering 429 as absent, like any 4xx', () => {
    expect(
      audit('robots-txt', '', { robots: { status: 429, content: 'slow down' } }),
    ).toMatchObject({ passed: true, applicable: false });
  });
});
