import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AccessibilityAnalysis } from '@inkwell/contract';
import { AccessibilityResult } from './AccessibilityResult';

const analysis = (extra: Partial<AccessibilityAnalysis>): AccessibilityAnalysis => ({
  url: 'https://site.example/',
  score: 90,
  violations: [],
  passes: 30,
  incomplete: 0,
  ai_insights: '',
  ...extra,
});

describe('AccessibilityResult', () => {
  it('says which rules a check without a browser left out', () => {
    render(
      <AccessibilityResult
        analysis={analysis({ mode: 'jsdom', not_checked: ['color-contrast', 'target-size'] })}
      />,
    );
    expect(
      screen.getByText('Checked without a browser: color contrast, target size not checked'),
    ).toBeInTheDocument();
  });

  it('says nothing of the kind when every rule ran in the browser', () => {
    render(<AccessibilityResult analysis={analysis({ mode: 'chromium' })} />);
    expect(screen.queryByText(/Checked without a browser/)).toBeNull();
  });

  it('says where each finding is: the selector and the HTML of every element', () => {
    render(
      <AccessibilityResult
        analysis={analysis({
          violations: [
            {
              id: 'image-alt',
              impact: 'critical',
              description: 'Images must have alternate text.',
              help_url: 'https://dequeuniversity.com/rules/axe/4.10/image-alt',
              count: 2,
              examples: ['#hero > img', '.logo'],
              nodes: [
                { selector: '#hero > img', snippet: '<img src="boat.jpg">' },
                { selector: '.logo', snippet: '<img class="logo" src="l.png">' },
              ],
            },
          ],
        })}
      />,
    );
    const list = screen.getByRole('list', { name: 'Elements failing image-alt' });
    expect(list).toHaveTextContent('#hero > img');
    expect(list).toHaveTextContent('<img src="boat.jpg">');
    expect(list).toHaveTextContent('<img class="logo" src="l.png">');
  });
});
