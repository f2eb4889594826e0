import { describe, expect, it } from 'vitest';
import { runAxeInJsdom, type AxeRun } from './axe-jsdom';
import { LIGHTHOUSE_A11Y_RULES } from './lighthouse-rules';
import { parsePage } from '../../fetch/page-document';

async function violations(body: string): Promise<string[]> {
  return (await run(`<main><h1>Page</h1>${body}</main>`)).violations.map((v) => v.id);
}

async function run(body: string): Promise<AxeRun> {
  const html = `<!doctype html><html lang="en"><head><title>A page</title></head><body>${body}</body></html>`;
  const dom = parsePage({
    url: 'http://site.example/',
    body: Buffer.from(html),
    contentType: 'text/html',
  });
  try {
    return await runAxeInJsdom(dom);
  } finally {
    dom.window.close();
  }
}

describe('axe-core in jsdom, against what Lighthouse reports', () => {
  // Both rules touch geometry APIs jsdom lacks; without an answer axe skipped them with an error.
  it('finds focusable content inside aria-hidden', async () => {
    expect(await violations('<div aria-hidden="true"><button>Hidden</button></div>')).toContain(
      'aria-hidden-focus',
    );
    expect(
      await violations('<div aria-hidden="true"><button tabindex="-1">Hidden</button></div>'),
    ).not.toContain('aria-hidden-focus');
  });

  it('finds an <object> without a text alternative', async () => {
    expect(await violations('<object data="/movie.bin"></object>')).toContain('object-alt');
    expect(await violations('<object data="/movie.bin" title="Our film"></object>')).not.toContain(
      'object-alt',
    );
  });

  it("runs the rules Lighthouse's category turns on beyond axe's defaults", async () => {
    const fakeCaption =
      '<table><tr><td colspan="2">Sales</td></tr><tr><th>Region</th><th>Q1</th></tr>' +
      '<tr><td>North</td><td>1</td></tr></table>';
    expect(await violations(fakeCaption)).toContain('table-fake-caption');
  });

  it('checks that the page has a main landmark (no layout needed)', async () => {
    const without = await run('<div><h1>Page</h1><p>Text</p></div>');
    expect(without.violations.map((v) => v.id)).toContain('landmark-one-main');
    const withMain = await run('<main><h1>Page</h1><p>Text</p></main>');
    expect(withMain.violations.map((v) => v.id)).not.toContain('landmark-one-main');
    expect(withMain.passes).toContain('landmark-one-main');
  });

  it('checks that a skip link leads somewhere', async () => {
    const skip = (target: string) =>
      run(
        `<a href="#content" class="skip">Skip to content</a><nav><a href="/about">About</a></nav>` +
          `<main ${target}><h1>Page</h1></main>`,
      );
    const broken = await skip('');
    expect(broken.violations.map((v) => v.id)).toContain('skip-link');
    const working = await skip('id="content"');
    expect(working.violations.map((v) => v.id)).not.toContain('skip-link');
    expect(working.passes).toContain('skip-link');
    // A same-page link after the first real link is ordinary navigation, not a skip link.
    const later = await run(
      '<nav><a href="/about">About</a></nav><main><a href="#gone">Up</a></main>',
    );
    expect(later.violations.map((v) => v.id)).not.toContain('skip-link');
  });

  it("finds a control whose name does not contain its visible label (Lighthouse's extra rule)", async () => {
    expect(await violations('<button aria-label="Close dialog">Send</button>')).toContain(
      'label-content-name-mismatch',
    );
    expect(await violations('<button aria-label="Send the message">Send</button>')).not.toContain(
      'label-content-name-mismatch',
    );
  });

  it("runs exactly Lighthouse's rules, except the three that need layout", async () => {
    const result = await run('<main><h1>Page</h1><p>Text</p></main>');
    const ran = [...result.passes, ...result.violations.map((v) => v.id), ...result.incomplete];
    for (const id of ran) expect(LIGHTHOUSE_A11Y_RULES).toContain(id);
    expect(result.notChecked).toEqual(['color-contrast', 'link-in-text-block', 'target-size']);
  });
});
