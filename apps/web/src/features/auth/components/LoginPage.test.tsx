import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { callsTo, json, mockFetch, renderWithProviders } from '../../../test/utils';
import { LoginPage } from './LoginPage';

const setup = () => {
  const user = userEvent.setup();
  renderWithProviders(<LoginPage />, { route: '/login', path: '/login' });
  return user;
};

describe('LoginPage', () => {
  it('requires email and password', async () => {
    const fetchMock = mockFetch(() => undefined);
    const user = setup();
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'login')).toHaveLength(0);
  });

  it('toggles password visibility and links to the reset page', async () => {
    mockFetch(() => undefined);
    const user = setup();
    const password = screen.getByLabelText(/^Password/);
    expect(password).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    expect(screen.getByRole('link', { name: 'Forgot Password?' })).toHaveAttribute(
      'href',
      '/reset-password',
    );
  });

  it('shows "Signing in...", stores the tokens and goes to /', async () => {
    let release: (r: Response) => void = () => {};
    mockFetch((req) =>
      req.path === 'login' ? new Promise<Response>((r) => (release = r)) : undefined,
    );
    const user = setup();
    await user.type(screen.getByLabelText(/^Email/), 'ada@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'secret-password');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('button', { name: 'Signing in...' })).toBeDisabled();
    release(json(200, { access_token: 'a', refresh_token: 'r', first_name: 'Ada' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(localStorage.getItem('accessToken')).toBe('a');
    expect(localStorage.getItem('refreshToken')).toBe('r');
    expect(localStorage.getItem('firstName')).toBe('Ada');
  });

  it('shows the server error text', async () => {
    mockFetch((req) =>
      req.path === 'login' ? json(401, { error: 'Invalid email or password' }) : undefined,
    );
    const user = setup();
    await user.type(screen.getByLabelText(/^Email/), 'ada@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Invalid email or password')).toBeInTheDocument();
  });

  it('falls back to "Failed to log in"', async () => {
    mockFetch((req) => (req.path === 'login' ? new Response('oops', { status: 500 }) : undefined));
    const user = setup();
    await user.type(screen.getByLabelText(/^Email/), 'ada@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'whatever-pass');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Failed to log in')).toBeInTheDocument();
  });
});
