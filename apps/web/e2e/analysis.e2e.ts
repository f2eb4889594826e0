import { beforeAll, describe, expect, it } from 'vitest';
import { AI_MARK } from './support/ai';
import { useAnalysedSite } from './support/analysed-site';
import { expectNoAxeViolations } from './support/axe';
import { useScenario } from './support/scenario';
import { hidden, holdRequests, visible } from './support/ui';
import { signedInAsNewUser } from './support/users';

describe('page analysis: accessibility and SEO of a locally served page', () => {
  const site = useAnalysedSite();
  let pageUrl = '';
  beforeAll(() => {
    pageUrl = site.url('/harbour.html');
  });
  const s = useScenario({ ai: {} });

  const articles = () => s.page.getByRole('log', { name: 'Conversation' }).getByRole('article');

  async function analyse(choice: 'Accessibility Analysis' | 'SEO Analysis' | 'Whole site') {
    const { page } = s;
    await page.getByRole('button', { name: 'Add URL' }).click();
    const field = page.getByRole('textbox', { name: 'Web page address' });
    await visible(field);
    await field.fill(pageUrl);
    await page.getByRole('button', { name: 'Analyze' }).click();
    const dialog = page.getByRole('dialog', { name: 'Select Action for URL' });
    await visible(dialog);
    await visible(dialog.getByText(pageUrl));
    await dialog.getByRole('button', { name: choice }).click();
    await hidden(dialog);
  }

  it('analyses a page for accessibility: step, AI insights and the findings', async () => {
    const { page, server } = s;
    await signedInAsNewUser(page, server);

    // URL mode: invalid input is refused; Return goes back to the text area.
    await page.getByRole('button', { name: 'Add URL' }).click();
    await page.getByRole('textbox', { name: 'Web page address' }).fill('ftp://example.com/file');
    await page.getByRole('button', { name: 'Analyze' }).click();
    await visible(page.getByText('Enter a valid web address, e.g. https://example.com'));
    await page.getByRole('button', { name: 'Return' }).click();
    await visible(page.getByRole('textbox', { name: 'Message' }));

    const release = await holdRequests(page, '**/api/accessibility-analysis');
    await analyse('Accessibility Analysis');
    const step = articles().filter({ hasText: `Analyzing ${pageUrl}...` });
    await visible(step);
    expect(await step.getAttribute('aria-busy')).toBe('true');
    release();
    const result = articles().filter({ hasText: AI_MARK.accessibility });
    await visible(result, 'accessibility insights', 30_000);
    await visible(result.getByText(/Accessibility score \d+\/100/));
    await visible(result.getByRole('link', { name: 'image-alt' }));
    // Where: each failing element's selector and its HTML, as Lighthouse shows them.
    const elements = result.getByRole('list', { name: 'Elements failing image-alt' });
    await visible(elements.getByText('img', { exact: true }));
    await visible(elements.getByText('<img src="lamp.png" width="10" height="10">'));
    const sent = s.ai.requests.at(-1)?.messages.find((m) => m.role === 'user')?.content ?? '';
    expect(sent).toContain('image-alt');
  });

  it('analyses a page for SEO and shows the failed audits', async () => {
    const { page, server } = s;
    await signedInAsNewUser(page, server);
    await analyse('SEO Analysis');
    await visible(articles().filter({ hasText: `Analyzing ${pageUrl}...` }));
    const result = articles().filter({ hasText: AI_MARK.seo });
    await visible(result, 'seo insights', 30_000);
    await visible(result.getByText(/SEO score \d+\/100/));
    await visible(result.getByText(/Failed \(\d+\)/));
    // The page's known problem (no meta description) is reported as failed, its title as passed.
    const group = (title: 'Failed' | 'Passed') =>
      result
        .locator('p', { hasText: new RegExp(`^${title} \\(\\d+\\)$`) })
        .locator('xpath=following-sibling::ul[1]')
        .getByRole('listitem')
        .allTextContents();
    const failed = await group('Failed');
    const passed = await group('Passed');
    // A failure's title says what is wrong.
    expect(failed).toContain(
      'Document does not have a meta description: No <meta name="description"> element.',
    );
    expect(passed.filter((a) => a.includes('meta description'))).toEqual([]);
    expect(passed).toContain('Document has a <title> element: Title: "Harbour lights"');
    const sent = s.ai.requests.at(-1)?.messages.find((m) => m.role === 'user')?.content ?? '';
    expect(sent).toContain('meta-description failed');
  });

  it('analyses the whole site as a job: step, summary per page, grouped issues, no axe violations', async () => {
    const { page, server } = s;
    await signedInAsNewUser(page, server);
    await analyse('Whole site');
    await visible(articles().filter({ hasText: `Analyzing the whole site of ${pageUrl}...` }));
    const done = articles().filter({
      hasText: `Site analysis completed for ${pageUrl}: 1 page(s) audited.`,
    });
    await visible(done, 'site summary', 60_000);
    const scores = page.getByRole('list', { name: 'Scores per page' });
    await visible(
      scores.getByText(
        new RegExp(
          `${pageUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: accessibility \\d+/100, SEO \\d+/100`,
        ),
      ),
    );
    const issues = page.getByRole('list', { name: 'Issues across pages' });
    await visible(issues.getByText(/Accessibility · image-alt: .* on 1 of 1 page$/));
    // One model call for the site, sent the grouped findings.
    const sent = s.ai.requests.at(-1)?.messages.find((m) => m.role === 'user')?.content ?? '';
    expect(sent).toContain('[accessibility] image-alt on 1 of 1 page(s)');
    await expectNoAxeViolations(page, 'site analysis summary');
  });

  it('reports a page that cannot be fetched as a failure in the chat', async () => {
    const { page, server } = s;
    await signedInAsNewUser(page, server);
    pageUrl = pageUrl.replace('harbour.html', 'missing.html');
    try {
      await analyse('SEO Analysis');
      await visible(
        articles().filter({ hasText: 'Failed to perform analysis due to an error.' }),
        'failure',
        30_000,
      );
    } finally {
      pageUrl = pageUrl.replace('missing.html', 'harbour.html');
    }
  });

  it('has no axe violations in URL mode and the Select Action for URL dialog (light and dark)', async () => {
    const { page, server } = s;
    await signedInAsNewUser(page, server);
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((t) => localStorage.setItem('themeMode', t), theme);
      await page.reload();
      await page.getByRole('button', { name: 'Add URL' }).click();
      await page.getByRole('textbox', { name: 'Web page address' }).fill(pageUrl);
      await expectNoAxeViolations(page, `URL mode (${theme})`);
      await page.getByRole('button', { name: 'Analyze' }).click();
      await visible(page.getByRole('dialog', { name: 'Select Action for URL' }));
      await expectNoAxeViolations(page, `Select Action for URL dialog (${theme})`);
      await page.keyboard.press('Escape');
    }
  });
});
