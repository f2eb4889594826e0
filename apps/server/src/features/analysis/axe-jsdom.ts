import axe from 'axe-core';
import type { JSDOM } from 'jsdom';
import type { AxeRawResult } from './accessibility-score';

/**
 * axe-core inside the page's jsdom window. jsdom has no layout and no canvas, so the rules that
 * measure rendering (colours, sizes, positions, landmark coverage of painted content) cannot give
 * a verdict there: they are not run, and are reported as "not checked without a browser" rather
 * than silently counted as passed.
 */
const NEEDS_RENDERING =
  /^(color-contrast|color-contrast-enhanced|link-in-text-block|target-size|region|landmark-.*)$/;

export const RULES_NOT_CHECKED_IN_JSDOM: string[] = axe
  .getRules()
  .map((r) => r.ruleId)
  .filter((id) => NEEDS_RENDERING.test(id))
  .sort();

/**
 * Rules axe leaves off by default that Lighthouse's accessibility category turns on (its
 * gatherer's config); on here too, so whatever Lighthouse fails, we check. target-size needs
 * layout: Chromium only.
 */
export const LIGHTHOUSE_EXTRA_RULES = [
  'identical-links-same-purpose',
  'table-fake-caption',
  'td-has-header',
];

export interface AxeRun {
  violations: AxeRawResult[];
  passes: string[];
  incomplete: string[];
  notChecked: string[];
}

interface AxeWindow {
  axe: typeof axe;
}

export async function runAxeInJsdom(dom: JSDOM): Promise<AxeRun> {
  const window = dom.window as unknown as Window & AxeWindow;
  withoutLayout(window);
  // Evaluated in the page's realm (never the page's own scripts: runScripts is 'outside-only').
  dom.window.eval(axe.source);
  const rules = Object.fromEntries([
    ...RULES_NOT_CHECKED_IN_JSDOM.map((id) => [id, { enabled: false }]),
    ...LIGHTHOUSE_EXTRA_RULES.map((id) => [id, { enabled: true }]),
  ]);
  const result = await window.axe.run(window.document, {
    rules,
    // Node lists only for violations: passes are counted by rule, which keeps large pages fast.
    resultTypes: ['violations'],
  });
  return {
    violations: result.violations as AxeRawResult[],
    passes: result.passes.map((r) => r.id),
    incomplete: result.incomplete.map((r) => r.id),
    notChecked: RULES_NOT_CHECKED_IN_JSDOM,
  };
}

/**
 * jsdom has no layout and lacks the geometry APIs some non-visual rules touch in passing
 * (aria-hidden-focus looks for a modal covering the page, object-alt whether fallback content is
 * painted), so axe skips them with an error. Answer as jsdom does for elements: nothing at any
 * point, no boxes; those rules then judge the markup, as they do in a browser without overlays.
 */
function withoutLayout(window: Window) {
  const doc = window.document as Document & Record<string, unknown>;
  doc.elementFromPoint ??= () => null;
  doc.elementsFromPoint ??= () => [];
  const range = (window as unknown as { Range: typeof Range }).Range.prototype as unknown as Record<
    string,
    unknown
  >;
  range.getClientRects ??= () => [];
  range.getBoundingClientRect ??= () => ({
    x: 0,
    y: 0,
    width: 0,
    height: 0,
    top: 0,
    right: 0,
    bottom: 0,
    left: 0,
  });
}
