import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityScore } from './accessibility-score';
import { analyseAccessibility } from '../../analysis.service';
import { RULES_NOT_CHECKED_IN_JSDOM } from './axe-jsdom';
import { startFixtureServer, type FixtureServer } from '../../test-fixtures/fixture-server';
import { noModel } from '../../test-fixtures/no-model';

let server: FixtureServer;
const deps = { ai: noModel, allowHosts: ['127.0.0.1'] };

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.close());

describe('accessibility analysis (axe-core in jsdom)', () => {
  it('finds no violations on the clean page', async () => {
    const result = await analyseAccessibility(deps, `${server.origin}/clean`);
    expect(result.mode).toBe('jsdom');
    expect(result.violations).toEqual([]);
    expect(result.score).toBe(100);
    expect(result.passes).toBeGreaterThan(5);
  });

  it('reports each defect with impact, help link, count and selectors', async () => {
    const result = await analyseAccessibility(deps, `${server.origin}/defects`);
    const byId = Object.fromEntries(result.violations.map((v) => [v.id, v]));
    expect(Object.keys(byId)).toEqual(
      expect.arrayContaining([
        'image-alt',
        'button-name',
        'html-has-lang',
        'document-title',
        'label',
      ]),
    );
    expect(byId['image-alt']).toMatchObject({ impact: 'critical', count: 1, examples: ['img'] });
    // Where: the selector and the element's HTML, for each element.
    expect(byId['image-alt']!.nodes).toEqual([
      { selector: 'img', snippet: expect.stringMatching(/^<img\b/) as unknown as string },
    ]);
    expect(byId['image-alt']!.help_url).toMatch(/^https:\/\/dequeuniversity\.com\/rules\/axe\//);
    // Most severe first.
    expect(result.violations[0]!.impact).toBe('critical');
    expect(result.score).toBeLessThan(70);
  });

  it('reports rendering rules as not checked, never as passed', async () => {
    const result = await analyseAccessibility(deps, `${server.origin}/defects`);
    expect(result.mode).toBe('jsdom');
    expect(result.not_checked).toEqual(RULES_NOT_CHECKED_IN_JSDOM);
    expect(result.not_checked).toEqual(['color-contrast', 'link-in-text-block', 'target-size']);
    for (const id of result.not_checked!)
      expect(result.violations.map((v) => v.id)).not.toContain(id);
  });

  it('weights rules like Lighthouse', () => {
    // image-alt (10) fails, document-title (7) and heading-order (3) pass, an unscored rule is ignored.
    expect(
      accessibilityScore([
        { id: 'image-alt', outcome: 'violation' },
        { id: 'document-title', outcome: 'pass' },
        { id: 'heading-order', outcome: 'pass' },
        { id: 'page-has-heading-one', outcome: 'violation' },
      ]),
    ).toBe(50);
    expect(accessibilityScore([])).toBe(100);
    // target-size (Chromium only) weighs 7, as label does.
    expect(
      accessibilityScore([
        { id: 'target-size', outcome: 'violation' },
        { id: 'label', outcome: 'pass' },
      ]),
    ).toBe(50);
  });
});
