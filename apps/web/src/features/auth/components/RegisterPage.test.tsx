import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { callsTo, json, mockFetch, renderWithProviders } from '../../../test/utils';
import { RegisterPage } from './RegisterPage';

const setup = () => {
  const user = userEvent.setup();
  renderWithProviders(<RegisterPage />, { route: '/register', path: '/register' });
  return user;
};

async function fill(
  user: ReturnType<typeof userEvent.setup>,
  {
    email = 'ada@example.com',
    password = 'correct-horse',
    confirm = 'correct-horse',
    terms = true,
  }: { email?: string; password?: string; confirm?: string; terms?: boolean } = {},
) {
  await user.type(screen.getByLabelText('First name'), 'Ada');
  await user.type(screen.getByLabelText('Last name'), 'Lovelace');
  if (email) await user.type(screen.getByLabelText(/^Email/), email);
  if (password) await user.type(screen.getByLabelText(/^Password/), password);
  if (confirm) await user.type(screen.getByLabelText(/^Confirm password/), confirm);
  if (terms) await user.click(screen.getByRole('checkbox'));
}

describe('RegisterPage', () => {
  it('requires the terms box', async () => {
    const fetchMock = mockFetch(() => undefined);
    const user = setup();
    await fill(user, { terms: false });
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(
      screen.getByText('Please accept the Terms of Service and Privacy Policy.'),
    ).toBeInTheDocument();
    expect(callsTo(fetchMock, 'register')).toHaveLength(0);
  });

  it('requires matching passwords', async () => {
    mockFetch(() => undefined);
    const user = setup();
    await fill(user, { confirm: 'something-else' });
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(screen.getByText('Passwords do not match.')).toBeInTheDocument();
  });

  it('requires email and password, and checks their format', async () => {
    mockFetch(() => undefined);
    const user = setup();
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Email/), 'not-an-email');
    await user.type(screen.getByLabelText(/^Password/), 'short');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(screen.getByText('Invalid email address')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 8 characters')).toBeInTheDocument();
  });

  it('links the terms and privacy pages in a new tab', () => {
    mockFetch(() => undefined);
    setup();
    expect(screen.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute(
      'href',
      '/terms.html',
    );
    expect(screen.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute(
      'target',
      '_blank',
    );
    expect(screen.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute(
      'href',
      '/privacy.html',
    );
  });

  it('shows "Signing Up...", sends the names, stores the tokens and goes to /', async () => {
    let release: (r: Response) => void = () => {};
    const fetchMock = mockFetch((req) =>
      req.path === 'register' ? new Promise<Response>((r) => (release = r)) : undefined,
    );
    const user = setup();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByRole('button', { name: 'Signing Up...' })).toBeDisabled();
    expect(JSON.parse(String(callsTo(fetchMock, 'register')[0]?.[1]?.body))).toEqual({
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
      password: 'correct-horse',
    });
    release(json(201, { access_token: 'a', refresh_token: 'r', first_name: 'Ada' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(localStorage.getItem('accessToken')).toBe('a');
  });

  it('shows the server error, or "Failed to register"', async () => {
    let answer = json(409, { error: 'Email already registered' });
    mockFetch((req) => (req.path === 'register' ? answer : undefined));
    const user = setup();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText('Email already registered')).toBeInTheDocument();
    answer = new Response('', { status: 500 });
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText('Failed to register')).toBeInTheDocument();
  });

  it('signs up with the invitation of its link: the address filled in, the token sent', async () => {
    const fetchMock = mockFetch((req) =>
      req.path === 'register'
        ? json(201, { access_token: 'a', refresh_token: 'r', first_name: 'Ada' })
        : undefined,
    );
    const user = userEvent.setup();
    renderWithProviders(<RegisterPage />, {
      route: '/register?invite=tok-123_abc&email=ada%40example.com',
      path: '/register',
    });
    expect(screen.getByText(/signing up with an invitation/)).toBeInTheDocument();
    expect(screen.getByLabelText(/^Email/)).toHaveValue('ada@example.com');
    await fill(user, { email: '' });
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    await waitFor(() => expect(callsTo(fetchMock, 'register')).toHaveLength(1));
    expect(JSON.parse(String(callsTo(fetchMock, 'register')[0]?.[1]?.body))).toEqual({
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
      password: 'correct-horse',
      invite: 'tok-123_abc',
    });
  });
});
