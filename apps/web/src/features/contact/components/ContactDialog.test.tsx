import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { callsTo, json, mockFetch, renderWithProviders } from '../../../test/utils';
import { ContactDialog } from './ContactDialog';

// The real widget solves a proof-of-work in a worker; here a button stands in for it.
vi.mock('./Captcha', () => ({
  Captcha: ({ onToken }: { onToken: (t: string) => void }) => (
    <button type="button" onClick={() => onToken('captcha-payload')}>
      Solve captcha
    </button>
  ),
}));

function setup(answer: () => Response | Promise<Response> = () => json(200, { message: 'ok' })) {
  const fetchMock = mockFetch((req) => (req.path === 'contact' ? answer() : undefined));
  const user = userEvent.setup();
  renderWithProviders(<ContactDialog open onClose={() => {}} />);
  return { user, fetchMock };
}

async function fill(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText(/^Name/), 'Ada');
  await user.type(screen.getByLabelText(/^Email/), 'ada@example.com');
  await user.type(screen.getByLabelText(/^Message/), 'Hello there');
}

describe('ContactDialog', () => {
  it('requires name, email and message', async () => {
    const { user, fetchMock } = setup();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Message is required')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'contact')).toHaveLength(0);
  });

  it('requires the captcha', async () => {
    const { user, fetchMock } = setup();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByText('Please verify that you are not a robot.')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'contact')).toHaveLength(0);
  });

  it('shows "Submitting...", then the thank-you state', async () => {
    let release: (r: Response) => void = () => {};
    const { user, fetchMock } = setup(() => new Promise<Response>((r) => (release = r)));
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('button', { name: 'Submitting...' })).toBeDisabled();
    expect(JSON.parse(String(callsTo(fetchMock, 'contact')[0]?.[1]?.body))).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
      message: 'Hello there',
      recaptchaToken: 'captcha-payload',
    });
    release(json(200, { message: 'ok' }));
    expect(await screen.findByText(/Thank you for contacting us!/)).toBeInTheDocument();
  });

  it('shows the failure message', async () => {
    const { user } = setup(() => json(500, { error: 'x' }));
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(
      await screen.findByText('Failed to submit the form. Please try again.'),
    ).toBeInTheDocument();
  });
});
