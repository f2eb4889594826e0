import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProofreadResponse } from '@inkwell/contract';
import { callsTo, mockFetch, renderWithProviders, signIn } from '../../../test/utils';
import { correctionSegments, textWithout } from './corrections';
import { ProofreadResult } from './ProofreadResult';

/** A deck of issue 40: two safe corrections, an acronym and a name kept as written. */
const TEXT = 'IHEP helps HBCUs recieve funding. Asha said it is due tomorow.';
const at = (word: string) => TEXT.indexOf(word);
const RESULT: ProofreadResponse = {
  response: 'Automatic check (Harper)',
  truncated: false,
  ai: false,
  corrected_text: 'IHEP helps HBCUs receive funding. Asha said it is due tomorrow.',
  issues: [
    { message: 'Did you mean to spell `IHEP` this way?', offset: 0, length: 4, suggestions: ['Hep'], rule: 'Spelling', original: 'IHEP', kept: 'acronym' },
    { message: 'Did you mean to spell `recieve` this way?', offset: at('recieve'), length: 7, suggestions: ['receive'], rule: 'Spelling', original: 'recieve', correction: 'receive' },
    { message: 'Did you mean to spell `Asha` this way?', offset: at('Asha'), length: 4, suggestions: ['Aha'], rule: 'Spelling', original: 'Asha', kept: 'name' },
    { message: 'Did you mean to spell `tomorow` this way?', offset: at('tomorow'), length: 7, suggestions: ['tomorrow'], rule: 'Spelling', original: 'tomorow', correction: 'tomorrow' },
  ],
}; // prettier-ignore

let saved: string[] = [];
beforeEach(() => {
  saved = [];
  Object.defineProperty(URL, 'createObjectURL', { configurable: true, value: () => 'blob:x' });
  Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: () => undefined });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    saved.push(this.download);
  });
});
afterEach(() => {
  delete (URL as { createObjectURL?: unknown }).createObjectURL;
  delete (URL as { revokeObjectURL?: unknown }).revokeObjectURL;
});

describe('ProofreadResult', () => {
  it('lists each applied change; an undone change is not in the downloaded text', async () => {
    signIn('Ada');
    const fetchMock = mockFetch((req) =>
      req.path === 'download-response' ? new Response(new Blob(['bytes'])) : undefined,
    );
    const user = userEvent.setup();
    renderWithProviders(<ProofreadResult result={RESULT} />);
    const region = screen.getByRole('region', { name: 'Corrected text' });
    expect(region).toHaveTextContent(RESULT.corrected_text);
    expect([...region.querySelectorAll('mark')].map((m) => m.textContent)).toEqual([
      'receive',
      'tomorrow',
    ]);
    const changes = within(screen.getByRole('list', { name: 'Changes applied' }));
    expect(changes.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      '“recieve” → “receive” (Spelling)Undo',
      '“tomorow” → “tomorrow” (Spelling)Undo',
    ]);
    // The name and the acronym are listed as kept, with why.
    const kept = within(screen.getByRole('list', { name: 'Kept as written' }));
    expect(kept.getByText(/IHEP.*an acronym/)).toBeInTheDocument();
    expect(kept.getByText(/Asha.*a name/)).toBeInTheDocument();

    await user.click(changes.getByRole('button', { name: 'Undo: “tomorow” → “tomorrow”' }));
    expect(region).toHaveTextContent(
      'IHEP helps HBCUs receive funding. Asha said it is due tomorow.',
    );
    expect(screen.getByText(/Corrected text: 1 change \(1 undone\)/)).toBeInTheDocument();
    const redo = changes.getByRole('button', { name: 'Redo: “tomorow” → “tomorrow”' });
    expect(redo).toHaveAttribute('aria-pressed', 'true');

    await user.click(screen.getByRole('button', { name: 'Download corrected text' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Download File' }));
    await user.click(dialog.getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(callsTo(fetchMock, 'download-response')[0]![1]!.body).toBe(
      JSON.stringify({
        text: 'IHEP helps HBCUs receive funding. Asha said it is due tomorow.',
        format: 'txt',
      }),
    );

    await user.click(redo);
    expect(region).toHaveTextContent(RESULT.corrected_text);
  });

  it('undoing every change gives the checked text back', () => {
    const segments = correctionSegments(RESULT.corrected_text, RESULT.issues);
    expect(textWithout(segments, new Set([0, 1]))).toBe(TEXT);
    expect(textWithout(segments, new Set())).toBe(RESULT.corrected_text);
  });
});
