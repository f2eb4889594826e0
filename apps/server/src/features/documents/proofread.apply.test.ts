import type { ProofreadIssue } from '@inkwell/contract';
import { describe, expect, it } from 'vitest';
import { applyFirstSuggestions } from './proofread.service';

const issue = (offset: number, length: number, ...suggestions: string[]): ProofreadIssue => ({
  message: 'm',
  offset,
  length,
  suggestions,
  rule: 'r',
});

describe('applyFirstSuggestions', () => {
  it('applies each first suggestion, skips overlaps and issues without one', () => {
    const text = 'Teh cat sat on teh the mat.';
    const issues = [
      issue(0, 3, 'The', 'Tea'),
      issue(15, 3, 'the'),
      issue(15, 7, 'X'), // overlaps the removal below, applied first (from the end): skipped
      issue(19, 4, ''), // "the " removed
      issue(8, 3), // no suggestion: left as it is
    ];
    expect(applyFirstSuggestions(text, issues)).toBe('The cat sat on the mat.');
  });
});
