import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { MODEL_UNAVAILABLE_MESSAGE, type AiStatus } from '@inkwell/contract';
import { json, mockFetch, renderWithProviders, signIn } from '../../../test/utils';
import { ModelStatusBanner } from './ModelStatusBanner';

const down: AiStatus = {
  state: 'unavailable',
  progress: null,
  name: 'llama:tiny.gguf',
  reason: null,
  queued: 0,
  last_ok_at: null,
};
const profile = (role: 'operator' | 'user') => ({
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Lovelace',
  created_at: '2026-11-27T10:00:00.000Z',
  english_dialect: 'auto',
  role,
});

describe('ModelStatusBanner', () => {
  it('points the operator who reads "the operator has been told" to the Admin page', async () => {
    signIn('Ada');
    mockFetch((req) => (req.path === 'user' ? json(200, profile('operator')) : undefined));
    renderWithProviders(<ModelStatusBanner status={down} />);
    expect(screen.getByRole('status')).toHaveTextContent(MODEL_UNAVAILABLE_MESSAGE);
    const link = await screen.findByRole('link', { name: 'the Admin page' });
    expect(link).toHaveAttribute('href', '/admin');
    expect(screen.getByRole('status')).toHaveTextContent('You are the operator');
  });

  it('tells anyone else only that the operator has been told', async () => {
    signIn('Grace');
    let asked = false;
    mockFetch((req) => {
      if (req.path !== 'user') return undefined;
      asked = true;
      return json(200, profile('user'));
    });
    renderWithProviders(<ModelStatusBanner status={down} />);
    await vi.waitFor(() => expect(asked).toBe(true));
    expect(screen.getByRole('status')).toHaveTextContent(MODEL_UNAVAILABLE_MESSAGE);
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.getByRole('status')).not.toHaveTextContent('operator:');
  });
});
