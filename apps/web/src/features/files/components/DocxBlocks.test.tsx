import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DocxBlocks } from './DocxBlocks';

describe('DocxBlocks table', () => {
  it('keeps each figure on one line (the table scrolls sideways), and lets text wrap', () => {
    render(
      <DocxBlocks
        blocks={[
          {
            type: 'table',
            rows: [
              ['Region', 'Revenue 2024', 'Change'],
              ['North and the islands', '$1,204,500.75', '-3.5 %'],
            ],
          },
        ]}
      />,
    );
    const style = (text: string) => getComputedStyle(screen.getByText(text));
    for (const figure of ['$1,204,500.75', '-3.5 %']) {
      expect(style(figure).whiteSpace, figure).toBe('nowrap');
      expect(style(figure).overflowWrap, figure).toBe('normal');
    }
    expect(style('North and the islands').whiteSpace).not.toBe('nowrap');
    expect(style('North and the islands').overflowWrap).toBe('normal');
  });
});
