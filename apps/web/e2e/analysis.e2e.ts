import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AI_MARK, startProductAi, type OpenAITestServer } from './support/ai';
import { expectNoAxeViolations } from './support/axe';
import { useScenario } from './support/scenario';
import { hidden, holdRequests, visible } from './support/ui';
import { signedInAsNewUser } from './support/users';

/** A page with known problems: an image without alt text, no meta description, no lang. */
const PAGE = `<!doctype html>
<html><head><title>Harbour lights</title></head>
<body><main><h1>Harbour lights</h1>
<img src="lamp.png" width="10" height="10">
<p>The harbour has three lights.</p></main></body></html>`;

describe('page analysis: accessibility and SEO of a locally served page', () => {
  let ai: OpenAITestServer | undefined;
  let site: Server | undefined;
  let pageUrl = '';
  beforeAll(async () => {
    site = createServer((req, res) => {
      if (req.url === '/robots.txt') {
        res.writeHead(200, { 'Content-Type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
      } else if (req.url === '/harbour.html') {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(PAGE);
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((r) => site!.listen(0, '127.0.0.1', r));
    pageUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/harbour.html`;
  });
  const s = useScenario({
    env: async () => {
      ai = await startProductAi();
      return { AI_BASE_URL: ai.url };
    },
  });
  afterAll(async () => {
    await ai?.close();
    await new Promise((r) => site?.close(r));
  });

  const articles = () => s.page.getByRole('log', { name: 'Conversation' }).getByRole('article');

  async function analyse(choice: 'Accessibility Analysis' | 'SEO Analysis') {
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
    const sent = ai!.requests.at(-1)?.messages.find((m) => m.role === 'user')?.content ?? '';
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
