import type { AccessibilityViolation, AxeImpact } from '@inkwell/contract';

/**
 * Lighthouse's accessibility category: the axe rules it scores and their weights (Lighthouse 12,
 * derived from axe impact: critical 10, serious 7, moderate 3, minor 1). Rules outside this table
 * are reported but, as in Lighthouse, do not move the score.
 */
export const LIGHTHOUSE_A11Y_WEIGHTS: Record<string, number> = {
  accesskeys: 7,
  'aria-allowed-attr': 10,
  'aria-allowed-role': 1,
  'aria-command-name': 7,
  'aria-conditional-attr': 7,
  'aria-deprecated-role': 1,
  'aria-dialog-name': 7,
  'aria-hidden-body': 10,
  'aria-hidden-focus': 7,
  'aria-input-field-name': 7,
  'aria-meter-name': 7,
  'aria-progressbar-name': 7,
  'aria-prohibited-attr': 7,
  'aria-required-attr': 10,
  'aria-required-children': 10,
  'aria-required-parent': 10,
  'aria-roles': 7,
  'aria-text': 7,
  'aria-toggle-field-name': 7,
  'aria-tooltip-name': 7,
  'aria-treeitem-name': 7,
  'aria-valid-attr-value': 10,
  'aria-valid-attr': 10,
  'button-name': 10,
  bypass: 7,
  'color-contrast': 7,
  'definition-list': 7,
  dlitem: 7,
  'document-title': 7,
  'duplicate-id-aria': 10,
  'form-field-multiple-labels': 3,
  'frame-title': 7,
  'heading-order': 3,
  'html-has-lang': 7,
  'html-lang-valid': 7,
  'html-xml-lang-mismatch': 3,
  'image-alt': 10,
  'image-redundant-alt': 1,
  'input-button-name': 10,
  'input-image-alt': 10,
  label: 7,
  'link-in-text-block': 7,
  'link-name': 7,
  list: 7,
  listitem: 7,
  'meta-refresh': 10,
  'meta-viewport': 10,
  'object-alt': 7,
  'select-name': 7,
  'skip-link': 3,
  tabindex: 7,
  'table-duplicate-name': 1,
  'target-size': 7,
  'td-headers-attr': 7,
  'th-has-data-cells': 7,
  'valid-lang': 7,
  'video-caption': 10,
};

export interface AxeRuleOutcome {
  id: string;
  /** Applicable rule: passes or violations; incomplete-only and inapplicable rules are not scored. */
  outcome: 'pass' | 'violation';
}

/** Weighted share of the scored rules that passed, 0–100, as Lighthouse computes its category. */
export function accessibilityScore(rules: AxeRuleOutcome[]): number {
  let total = 0;
  let earned = 0;
  const seen = new Set<string>();
  for (const r of rules) {
    const weight = LIGHTHOUSE_A11Y_WEIGHTS[r.id];
    if (!weight || seen.has(r.id)) continue;
    seen.add(r.id);
    total += weight;
    if (r.outcome === 'pass') earned += weight;
  }
  return total === 0 ? 100 : Math.round((earned / total) * 100);
}

/** The subset of an axe result we read, shared by the jsdom and Chromium runners. */
export interface AxeRawResult {
  id: string;
  impact?: string | null;
  help: string;
  description: string;
  helpUrl: string;
  nodes: Array<{ target: unknown[]; html?: string }>;
}

const MAX_NODES = 20;
const SNIPPET_CHARS = 300;
const snippet = (html: string) =>
  html.length > SNIPPET_CHARS ? `${html.slice(0, SNIPPET_CHARS - 1)}…` : html;

const IMPACT_ORDER: Record<string, number> = { critical: 0, serious: 1, moderate: 2, minor: 3 };

export function toViolations(results: AxeRawResult[]): AccessibilityViolation[] {
  return results
    .map((v) => ({
      id: v.id,
      impact: (v.impact ?? null) as AxeImpact | null,
      description: `${v.help}. ${v.description}`,
      help_url: v.helpUrl,
      count: v.nodes.length,
      examples: v.nodes.slice(0, 5).map((n) => n.target.map(String).join(' ')),
      // Where, as Lighthouse shows it: each element's selector and the start of its HTML.
      nodes: v.nodes.slice(0, MAX_NODES).map((n) => ({
        selector: n.target.map(String).join(' '),
        snippet: snippet(n.html ?? ''),
      })),
    }))
    .sort((a, b) => (IMPACT_ORDER[a.impact ?? ''] ?? 4) - (IMPACT_ORDER[b.impact ?? ''] ?? 4));
}
