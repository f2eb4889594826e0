import { describe, expect, it } from 'vitest';
import { runAxeInJsdom } from './axe-jsdom';
import { parsePage } from './page-document';

async function violations(body: string): Promise<string[]> {
  const html = `<!doctype html><html lang="en"><head><title>A page</title></head><body><main><h1>Page</h1>${body}</main></body></html>`;
  const dom = parsePage({
    url: 'http://site.example/',
    body: Buffer.from(html),
    contentType: 'text/html',
  });
  try {
    return (await runAxeInJsdom(dom)).violations.map((v) => v.id);
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
});
