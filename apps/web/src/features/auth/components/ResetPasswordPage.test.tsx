import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderWithProviders } from '../../../test/utils';
import { COLORS } from '../../../theme/theme';
import { ResetPasswordPage } from './ResetPasswordPage';

const render = (route: string) =>
  renderWithProviders(<ResetPasswordPage />, { route, path: '/reset-password' });

describe('ResetPasswordPage, request mode', () => {
  it('requires a valid email', async () => {
    mockFetch(() => undefined);
    const user = userEvent.setup();
    render('/reset-password');
    expect(screen.getByRole('heading', { name: 'Reset Password' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Request Reset Link' }));
    expect(screen.getByText('Email is required')).toBeInTheDocument();
  });

  it('shows the server message in blue', async () => {
    mockFetch((req) =>
      req.path === 'request_password_reset'
        ? json(200, { message: 'Check your inbox.' })
        : undefined,
    );
    const user = userEvent.setup();
    render('/reset-password');
    await user.type(screen.getByLabelText(/^Email/), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Request Reset Link' }));
    expect(await screen.findByText('Check your inbox.')).toHaveStyle({ color: COLORS.primary });
  });

  it('shows errors in red, with the fallback text', async () => {
    mockFetch((req) =>
      req.path === 'request_password_reset' ? new Response('', { status: 500 }) : undefined,
    );
    const user = userEvent.setup();
    render('/reset-password');
    await user.type(screen.getByLabelText(/^Email/), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Request Reset Link' }));
    expect(await screen.findByText('Failed to request password reset')).toHaveStyle({
      color: '#d32f2f',
    });
  });
});

describe('ResetPasswordPage, token mode', () => {
  it('checks the new password rule', async () => {
    mockFetch(() => undefined);
    const user = userEvent.setup();
    render('/reset-password?token=abc');
    expect(screen.getByRole('heading', { name: 'Set New Password' })).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^New password/), 'short');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(screen.getByText('Password must be at least 8 characters')).toBeInTheDocument();
  });

  it('resets with the token, then goes to /login after 3 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const fetchMock = mockFetch((req) =>
        req.path === 'reset_password'
          ? json(200, { message: 'Password has been reset.' })
          : undefined,
      );
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      render('/reset-password?token=abc');
      await user.type(screen.getByLabelText(/^New password/), 'a-new-password');
      await user.click(screen.getByRole('button', { name: 'Reset Password' }));
      expect(await screen.findByText('Password has been reset.')).toBeInTheDocument();
      expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({
        token: 'abc',
        password: 'a-new-password',
      });
      act(() => vi.advanceTimersByTime(2900));
      expect(screen.getByTestId('location')).toHaveTextContent('/reset-password?token=abc');
      act(() => vi.advanceTimersByTime(200));
      expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/);
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows the server error, or "Failed to reset password"', async () => {
    let answer = json(400, { error: 'Invalid or expired token' });
    mockFetch((req) => (req.path === 'reset_password' ? answer : undefined));
    const user = userEvent.setup();
    render('/reset-password?token=abc');
    await user.type(screen.getByLabelText(/^New password/), 'a-new-password');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Invalid or expired token')).toBeInTheDocument();
    answer = new Response('', { status: 500 });
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Failed to reset password')).toBeInTheDocument();
  });
});
