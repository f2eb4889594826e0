import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PassageText } from './PassageText';

describe('PassageText', () => {
  const text = 'Alpha beta. The passage itself. Gamma.';
  const start = text.indexOf('The passage');
  const end = start + 'The passage itself.'.length;

  it('marks the passage between its offsets and keeps the rest of the text around it', () => {
    const { container } = render(
      <PassageText text={text} passage={{ where: 'section 2', start, end }} zoom={16} />,
    );
    const mark = screen.getByTestId('cited-passage');
    expect(mark.tagName).toBe('MARK');
    expect(mark).toHaveTextContent('Cited passage: The passage itself. End of the cited passage.');
    expect(container).toHaveTextContent(/Alpha beta\. .*The passage itself\..* Gamma\./);
    expect(screen.getByText('The cited passage (section 2) is marked.')).toBeInTheDocument();
  });

  it('says so when the passage lies beyond the text shown (a truncated preview)', () => {
    render(
      <PassageText text={text} passage={{ where: 'page 90', start: 500, end: 520 }} zoom={16} />,
    );
    expect(screen.queryByTestId('cited-passage')).toBeNull();
    expect(
      screen.getByText('The cited passage (page 90) is not in the part of the file shown.'),
    ).toBeInTheDocument();
  });
});
