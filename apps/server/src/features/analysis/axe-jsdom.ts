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
  // Evaluated in the page's realm (never the page's own scripts: runScripts is 'outside-only').
  dom.window.eval(axe.source);
  const rules = Object.fromEntries(
    RULES_NOT_CHECKED_IN_JSDOM.map((id) => [id, { enabled: false }]),
  );
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
