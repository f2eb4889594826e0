import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SiteAnalysis } from '@inkwell/contract';
import { SiteResult } from './SiteResult';

const HOME = 'https://site.test/';
const base: SiteAnalysis = {
  start_url: HOME,
  pages: [{ url: HOME, accessibility_score: 90, seo_score: 80 }],
  issues: [],
  disallowed: [],
  fetched: [
    { url: HOME, status: 200, html: true },
    { url: `${HOME}about`, status: 404, html: false },
    { url: `${HOME}team`, status: 404, html: true },
  ],
  status_counts: { '200': 1, '404': 2 },
  broken_links: [
    { url: `${HOME}about`, status: 404, linked_from: [HOME] },
    { url: `${HOME}team`, status: 404, linked_from: [HOME, 'sitemap.xml'] },
  ],
  ai_insights: 'Fix the links.',
};

describe('SiteResult', () => {
  it('counts every status and lists each broken link with the pages linking to it', () => {
    render(<SiteResult analysis={base} />);
    expect(screen.getByText('Addresses fetched (3): HTTP 200 ×1, HTTP 404 ×2')).toBeInTheDocument();
    const links = within(screen.getByRole('list', { name: 'Broken links' }));
    expect(links.getByText(`${HOME}team: HTTP 404`)).toBeInTheDocument();
    expect(links.getByText(`Linked from ${HOME}, sitemap.xml`)).toBeInTheDocument();
    expect(
      screen.getByText('Pages audited (1): the pages that answered with HTML'),
    ).toBeInTheDocument();
  });

  it('with nothing audited, shows what was fetched and not the empty audit', () => {
    render(
      <SiteResult
        analysis={{
          ...base,
          pages: [],
          fetched: [],
          status_counts: {},
          broken_links: [],
          disallowed: [HOME],
          notice: 'robots.txt does not allow any page of this site',
          ai_insights: '',
        }}
      />,
    );
    expect(screen.getByText('Addresses fetched (0)')).toBeInTheDocument();
    expect(screen.getByText('Not crawled (robots.txt): 1 address(es).')).toBeInTheDocument();
    expect(screen.queryByText(/Pages audited/)).toBeNull();
    expect(screen.queryByText(/No issues found/)).toBeNull();
  });
});
