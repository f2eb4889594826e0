import { describe, expect, it } from 'vitest';
import { groupIssues } from './group-issues';
import { parseSitemap } from './sitemap';

const violation = (id: string) => ({
  id,
  impact: 'serious' as const,
  description: `${id} description`,
  help_url: '',
  count: 1,
  examples: [],
});
const audit = (id: string, passed: boolean) => ({ id, title: `${id} title`, passed, details: '' });

describe('groupIssues', () => {
  it('lists each issue once with its pages, most widespread first', () => {
    const issues = groupIssues([
      {
        url: 'https://s.test/a',
        accessibility: { violations: [violation('image-alt'), violation('label')] },
        seo: { audits: [audit('meta-description', false), audit('document-title', true)] },
      },
      {
        url: 'https://s.test/b',
        accessibility: { violations: [violation('image-alt')] },
        seo: { audits: [audit('meta-description', false)] },
      },
      // A page whose audits failed adds nothing.
      { url: 'https://s.test/c' },
      {
        url: 'https://s.test/d',
        accessibility: { violations: [violation('image-alt')] },
        seo: { audits: [audit('document-title', true)] },
      },
    ]);
    expect(issues).toEqual([
      {
        audit: 'accessibility',
        id: 'image-alt',
        description: 'image-alt description',
        pages_affected: 3,
        pages: ['https://s.test/a', 'https://s.test/b', 'https://s.test/d'],
      },
      {
        audit: 'seo',
        id: 'meta-description',
        description: 'meta-description title',
        pages_affected: 2,
        pages: ['https://s.test/a', 'https://s.test/b'],
      },
      {
        audit: 'accessibility',
        id: 'label',
        description: 'label description',
        pages_affected: 1,
        pages: ['https://s.test/a'],
      },
    ]);
  });

  it('keeps an accessibility rule and an SEO audit of the same id apart', () => {
    const issues = groupIssues([
      {
        url: 'https://s.test/',
        accessibility: { violations: [violation('x')] },
        seo: { audits: [audit('x', false)] },
      },
    ]);
    expect(issues.map((i) => i.audit).sort()).toEqual(['accessibility', 'seo']);
  });
});

describe('parseSitemap', () => {
  it('reads page locations, decoding entities and CDATA', () => {
    const xml =
      '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
      '<url><loc>https://s.test/a?x=1&amp;y=2</loc></url>' +
      '<url><loc>\n  <![CDATA[https://s.test/b]]>\n</loc><lastmod>2024-01-01</lastmod></url>' +
      '</urlset>';
    expect(parseSitemap(xml)).toEqual({
      index: false,
      locations: ['https://s.test/a?x=1&y=2', 'https://s.test/b'],
    });
  });

  it('tells a sitemap index from a sitemap', () => {
    const xml =
      '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
      '<sitemap><loc>https://s.test/pages.xml</loc></sitemap></sitemapindex>';
    expect(parseSitemap(xml)).toEqual({ index: true, locations: ['https://s.test/pages.xml'] });
  });
});
