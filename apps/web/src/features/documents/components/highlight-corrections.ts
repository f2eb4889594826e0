import type { ProofreadIssue } from '@inkwell/contract';

export interface Segment {
  text: string;
  /** The issue this segment corrects, if any. */
  issue?: ProofreadIssue;
}

/**
 * Splits `corrected_text` into plain and corrected segments. Issue offsets point into the original
 * text, and each issue's first suggestion was applied in order, so a running length delta maps
 * them onto the corrected text. Anything inconsistent falls back to the plain text.
 */
export function highlightCorrections(corrected: string, issues: ProofreadIssue[]): Segment[] {
  const sorted = [...issues].sort((a, b) => a.offset - b.offset);
  const segments: Segment[] = [];
  let delta = 0;
  let cursor = 0;
  let lastEnd = -1;
  for (const issue of sorted) {
    if (issue.offset < lastEnd) continue; // overlapping issues are not applied twice
    const replacement = issue.suggestions[0];
    const start = issue.offset + delta;
    const length = replacement !== undefined ? replacement.length : issue.length;
    if (start < cursor || start + length > corrected.length) return [{ text: corrected }];
    if (start > cursor) segments.push({ text: corrected.slice(cursor, start) });
    segments.push({ text: corrected.slice(start, start + length), issue });
    cursor = start + length;
    delta += length - issue.length;
    lastEnd = issue.offset + issue.length;
  }
  if (cursor < corrected.length) segments.push({ text: corrected.slice(cursor) });
  return segments;
}
