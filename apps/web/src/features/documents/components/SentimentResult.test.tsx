import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { SentimentResponse } from '@inkwell/contract';
import { SentimentResult } from './SentimentResult';

/** A publisher's title list: the titles were read; the category column is one choice away. */
const RESULT: SentimentResponse = {
  response: 'Automatic analysis',
  overall: { label: 'neutral', score: 0 },
  items: [{ text: 'Communications of the ACM', label: 'neutral', score: 0 }],
  ai: false,
  column: 'TITLE',
  column_choices: ['TITLE', 'CONTENT TYPE', 'ISSN'],
};

describe('SentimentResult column picker', () => {
  it('names the column read and runs again on the one chosen', async () => {
    const onColumn = vi.fn();
    render(<SentimentResult result={RESULT} onColumn={onColumn} />);
    expect(screen.getByText(/column “TITLE”/)).toBeInTheDocument();
    const picker = screen.getByRole('combobox', { name: 'Column analysed' });
    expect(picker).toHaveValue('TITLE');
    expect([...(picker as HTMLSelectElement).options].map((o) => o.value)).toEqual([
      'TITLE',
      'CONTENT TYPE',
      'ISSN',
    ]);
    await userEvent.setup().selectOptions(picker, 'CONTENT TYPE');
    expect(onColumn).toHaveBeenCalledWith('CONTENT TYPE');
  });

  it('has no picker without a choice to make, or without a way to run again', () => {
    const { unmount } = render(<SentimentResult result={RESULT} />);
    expect(screen.queryByRole('combobox')).toBeNull();
    unmount();
    render(
      <SentimentResult result={{ ...RESULT, column_choices: ['TITLE'] }} onColumn={vi.fn()} />,
    );
    expect(screen.queryByRole('combobox')).toBeNull();
  });
});
