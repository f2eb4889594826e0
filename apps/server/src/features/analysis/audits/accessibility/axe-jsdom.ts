import type axe from 'axe-core';
import { axeCore } from '../../../../lib/lazy-axe';
import type { JSDOM } from 'jsdom';
import type { AxeRawResult } from './accessibility-score';
import { axeRunOptions, LIGHTHOUSE_A11Y_RULES, RULES_NEEDING_LAYOUT } from './lighthouse-rules';

/**
 * axe-core inside the page's jsdom window, with Lighthouse's rule set. jsdom has no layout and no
 * canvas, so the rules that measure rendering cannot give a verdict there: they are not run, and
 * are reported as "not checked without a browser" rather than silently counted as passed.
 */
export const RULES_NOT_CHECKED_IN_JSDOM: string[] = [...RULES_NEEDING_LAYOUT].sort();

const JSDOM_RULES = LIGHTHOUSE_A11Y_RULES.filter((id) => !RULES_NEEDING_LAYOUT.includes(id));

/**
 * axe applies skip-link only to links painted off-screen (the usual "Skip to content" that shows
 * on focus), which takes layout; without it every same-page link ahead of the page's first real
 * link is taken for a skip link, and its target must exist. Runs in the page's realm.
 */
const SKIP_LINKS_WITHOUT_LAYOUT = `axe.configure({ rules: [{ id: 'skip-link',
  matches: function (node) { return axe.commons.dom.isSkipLink(node); } }] });`;

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
  withoutFonts(window);
  // Evaluated in the page's realm (never the page's own scripts: runScripts is 'outside-only').
  dom.window.eval(axeCore().source);
  dom.window.eval(SKIP_LINKS_WITHOUT_LAYOUT);
  const result = await window.axe.run(window.document, axeRunOptions(JSDOM_RULES));
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

/**
 * jsdom has no canvas, which axe uses to tell icon-font ligatures ("close" drawn as ×) from words
 * when it compares a control's visible text with its name (label-content-name-mismatch): without
 * it the rule errors and is never decided. Without fonts there are no ligatures: a canvas stand-in
 * that draws every character alike and as wide makes axe read text as text.
 */
function withoutFonts(window: Window) {
  const canvas = (window as unknown as { HTMLCanvasElement: typeof HTMLCanvasElement })
    .HTMLCanvasElement.prototype as unknown as Record<string, unknown>;
  canvas.getContext = function getContext(this: { width: number; height: number }) {
    return {
      canvas: this,
      font: '',
      measureText: (text: string) => ({ width: 30 * [...text].length }),
      fillText: () => undefined,
      clearRect: () => undefined,
      getImageData: (_x: number, _y: number, w: number, h: number) => ({
        data: new Uint8ClampedArray(Math.max(1, Math.ceil(w) * Math.ceil(h)) * 4).fill(255),
      }),
    };
  };
}
