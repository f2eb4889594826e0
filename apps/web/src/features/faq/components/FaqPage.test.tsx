import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/utils';
import { FAQ_ITEMS } from '../faq-data';
import { FaqPage } from './FaqPage';

describe('FaqPage', () => {
  it('lists 13 questions with the first one open', () => {
    renderWithProviders(<FaqPage />);
    const buttons = screen.getAllByRole('button', { expanded: false });
    const open = screen.getAllByRole('button', { expanded: true });
    expect(FAQ_ITEMS).toHaveLength(13);
    expect(open).toHaveLength(1);
    expect(open[0]).toHaveTextContent(FAQ_ITEMS[0]?.question ?? '');
    expect(buttons).toHaveLength(12);
  });

  it('covers the facts the spec requires', () => {
    const all = FAQ_ITEMS.map((i) => `${i.question} ${i.answer}`).join(' ');
    for (const fact of [
      'free for now',
      'experimental',
      'small general-purpose language model',
      '10 MB',
      '100 MB',
    ]) {
      expect(all).toContain(fact);
    }
  });

  it('explains voice input and read-aloud (spec §1 features), within the 13 questions', async () => {
    expect(FAQ_ITEMS).toHaveLength(13);
    const answers = FAQ_ITEMS.map((i) => i.answer);
    expect(answers.some((a) => /Voice input/.test(a) && /English/.test(a))).toBe(true);
    expect(answers.some((a) => /Read aloud/.test(a) && /again to stop/.test(a))).toBe(true);
    const user = userEvent.setup();
    renderWithProviders(<FaqPage />);
    await user.type(screen.getByRole('searchbox', { name: 'Search FAQs' }), 'read aloud');
    expect(screen.getByText('How does the chat work, and can I use my voice?')).toBeInTheDocument();
  });

  it('filters questions and answers case-insensitively, and says when nothing matches', async () => {
    const user = userEvent.setup();
    renderWithProviders(<FaqPage />);
    const search = screen.getByRole('searchbox', { name: 'Search FAQs' });
    await user.type(search, 'STORAGE');
    expect(screen.getByText('How much storage do I have?')).toBeInTheDocument();
    expect(screen.queryByText('Is Inkwell free?')).toBeNull();
    await user.clear(search);
    await user.type(search, 'xyzzy');
    expect(screen.getByText('No results found.')).toBeInTheDocument();
  });
});
