import type { ProofreadIssue } from '@inkwell/contract';

/**
 * The corrected text of a proofread, cut into plain text and the changes it applied, so each
 * change can be undone before download. Issue offsets point into the checked text; the changes
 * were applied in order, so a running shift maps them onto the corrected text. Anything
 * inconsistent (a result from an older server, without `original`) is shown as plain text.
 */
export interface Segment {
  text: string;
  /** The applied change this segment is, with its index among the changes. */
  change?: { index: number; issue: ProofreadIssue; original: string };
}

export function correctionSegments(corrected: string, issues: ProofreadIssue[]): Segment[] {
  const changes = issues
    .filter((i) => i.correction !== undefined && i.original !== undefined)
    .sort((a, b) => a.offset - b.offset);
  const segments: Segment[] = [];
  let shift = 0;
  let cursor = 0;
  for (const [index, issue] of changes.entries()) {
    const start = issue.offset + shift;
    const replacement = issue.correction!;
    if (start < cursor || corrected.slice(start, start + replacement.length) !== replacement) {
      return [{ text: corrected }];
    }
    if (start > cursor) segments.push({ text: corrected.slice(cursor, start) });
    segments.push({ text: replacement, change: { index, issue, original: issue.original! } });
    cursor = start + replacement.length;
    shift += replacement.length - issue.length;
  }
  if (cursor < corrected.length) segments.push({ text: corrected.slice(cursor) });
  return segments;
}

/** The text to download: every change applied but those undone. */
export function textWithout(segments: Segment[], undone: ReadonlySet<number>): string {
  return segments
    .map((s) => (s.change && undone.has(s.change.index) ? s.change.original : s.text))
    .join('');
}
