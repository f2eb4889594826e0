import { LIGHTHOUSE_A11Y_WEIGHTS } from './accessibility-score';

/**
 * Audits of Lighthouse 12's accessibility category that weigh nothing in its score but are still
 * reported (core/config/default-config.js; its gatherer turns these rules on beyond axe's
 * defaults, label-content-name-mismatch among them, which axe marks experimental).
 */
const LIGHTHOUSE_UNSCORED_RULES = [
  'empty-heading',
  'identical-links-same-purpose',
  'label-content-name-mismatch',
  'landmark-one-main',
  'table-fake-caption',
  'td-has-header',
];

/** The axe rules Lighthouse's accessibility category runs and reports: exactly these are run. */
export const LIGHTHOUSE_A11Y_RULES: readonly string[] = [
  ...Object.keys(LIGHTHOUSE_A11Y_WEIGHTS),
  ...LIGHTHOUSE_UNSCORED_RULES,
].sort();

/**
 * Rules that measure rendering (colours, sizes, positions): jsdom has no layout, so they give no
 * verdict there and are reported as not checked, never as passed.
 */
export const RULES_NEEDING_LAYOUT: readonly string[] = [
  'color-contrast',
  'link-in-text-block',
  'target-size',
];

/**
 * axe.run options for a rule list: runOnly names each rule, and `rules` enables them too, so rules
 * axe keeps off by default (experimental ones such as label-content-name-mismatch) run as well.
 */
export function axeRunOptions(rules: readonly string[]) {
  return {
    runOnly: { type: 'rule' as const, values: [...rules] },
    rules: Object.fromEntries(rules.map((id) => [id, { enabled: true }])),
    // Node lists only for violations: passes are counted by rule, which keeps large pages fast.
    resultTypes: ['violations' as const],
  };
}
