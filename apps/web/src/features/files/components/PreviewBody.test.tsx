import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PreviewBody } from './PreviewBody';

describe('PreviewBody of a pdf as text', () => {
  it('shows every page under its label and says which were read by OCR', () => {
    render(
      <PreviewBody
        zoom={16}
        preview={{
          kind: 'pages',
          type: 'pdf',
          text: 'Typed\n\nHELLO WORLD',
          truncated: false,
          pages: [
            { label: 'Page 1', text: 'Typed', ocr: false },
            { label: 'Page 2', text: 'HELLO WORLD', ocr: true },
          ],
        }}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Page 1' })).toBeInTheDocument();
    expect(
      screen.getByRole('heading', { name: 'Page 2 (read by OCR from the scanned image)' }),
    ).toBeInTheDocument();
    expect(screen.getByText('HELLO WORLD')).toBeInTheDocument();
  });
});
