import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  callsTo,
  json,
  mockFetch,
  renderWithProviders,
  signIn,
  type MockHandler,
} from '../test/utils';
import { APP_ROUTES } from '@inkwell/contract';
import { apiRequest } from '../lib/api-client';
import { AppRoutes } from './routes';

vi.mock('../features/contact/components/Captcha', () => ({ Captcha: () => <span>captcha</span> }));

function setup(route: string, handler: MockHandler = () => undefined) {
  const fetchMock = mockFetch(
    (req) =>
      handler(req) ??
      (req.path === 'alerts/latest'
        ? json(200, { message: '', severity: 'info', isVisible: false })
        : undefined),
  );
  const user = userEvent.setup();
  renderWithProviders(<AppRoutes />, { route });
  return { user, fetchMock };
}
const location = () => screen.getByTestId('location');

describe('routes', () => {
  it('shows the 404 page for unknown paths', async () => {
    setup('/nope');
    expect(
      await screen.findByRole('heading', { name: '404 - Page Not Found' }),
    ).toBeInTheDocument();
    expect(screen.getByText('The page you are looking for does not exist.')).toBeInTheDocument();
  });

  it('draws a screen, not the 404 page, at each path the server answers 200 for', async () => {
    // The server's list of the app's screens (contract APP_ROUTES) is the router's: a path it
    // serves with 200 is never the app's 404 page (bar /admin, which only operators may see).
    signIn('Ada');
    for (const route of APP_ROUTES.filter((r) => r !== '/admin')) {
      setup(route);
      await waitFor(() => expect(location()).toHaveTextContent(route));
      expect(screen.queryByRole('heading', { name: '404 - Page Not Found' }), route).toBeNull();
      cleanup();
    }
  });

  it('shows the 404 page at /admin to anyone but an operator', async () => {
    const notFound = () => screen.findByRole('heading', { name: '404 - Page Not Found' });
    const anonymous = setup('/admin');
    expect(await notFound()).toBeInTheDocument();
    expect(callsTo(anonymous.fetchMock, 'admin/overview')).toHaveLength(0);
    cleanup();

    signIn('Ada');
    const member = setup('/admin', (req) =>
      req.path === 'admin/overview'
        ? json(404, { error: 'Route GET /api/admin/overview not found' })
        : undefined,
    );
    expect(await notFound()).toBeInTheDocument();
    expect(callsTo(member.fetchMock, 'admin/overview')).toHaveLength(1);
    expect(location()).toHaveTextContent(/^\/admin$/);
  });

  it('shows the Admin page at /admin to an operator', async () => {
    signIn('Ada');
    setup('/admin', (req) => {
      if (req.path === 'admin/overview')
        return json(200, {
          registration: { mode: 'invite', domains: [] },
          model: {
            available: true,
            state: 'ready',
            progress: null,
            name: 'openai:test-model',
            reason: null,
            detail: null,
            next_retry_at: null,
            queued: 0,
            last_ok_at: null,
          },
          alert: { message: '', severity: 'info', isVisible: false },
          prompt_limit: 20,
        });
      if (req.path === 'admin/users') return json(200, { users: [] });
      return undefined;
    });
    expect(await screen.findByRole('heading', { name: 'Admin', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('openai:test-model: ready')).toBeInTheDocument();
    expect(screen.getByText('By invitation only')).toBeInTheDocument();
  });

  it('sends anonymous visitors from /account to /login', async () => {
    setup('/account');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(location()).toHaveTextContent(/^\/login$/);
  });

  it('shows the welcome with four feature cards and the footer note on /', async () => {
    signIn('Ada');
    setup('/');
    expect(await screen.findByRole('heading', { name: 'Hello, Ada!' })).toBeInTheDocument();
    for (const title of [
      'Instant Translation',
      'Content Analysis',
      'AI Assistance',
      'Proofread or Summarize',
    ]) {
      expect(screen.getByRole('heading', { name: title })).toBeInTheDocument();
    }
    expect(screen.getByText('AI responses may display inaccurate info.')).toBeInTheDocument();
  });

  it('greets anonymous visitors without a name and hides the bottom bar on other screens', async () => {
    const { user } = setup('/');
    expect(await screen.findByRole('heading', { name: 'Hello!' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    await user.click(screen.getByRole('link', { name: 'FAQ' }));
    expect(
      await screen.findByRole('heading', { name: 'Frequently Asked Questions' }),
    ).toBeInTheDocument();
    expect(screen.queryByText('AI responses may display inaccurate info.')).toBeNull();
  });
});

describe('top bar', () => {
  it('signed out on a small screen: an icon menu with Login and Sign Up', async () => {
    const { user } = setup('/faq');
    await user.click(await screen.findByRole('button', { name: 'Login or sign up' }));
    const menu = within(await screen.findByRole('menu'));
    expect(menu.getByRole('menuitem', { name: 'Login' })).toHaveAttribute('href', '/login');
    expect(menu.getByRole('menuitem', { name: 'Sign Up' })).toHaveAttribute('href', '/register');
  });

  it('signed in: the first name, My Files opens the file drawer, Account goes to /account', async () => {
    signIn('Ada');
    const { user } = setup('/faq', (req) =>
      req.path === 'user'
        ? json(200, {
            first_name: 'Ada',
            last_name: 'L',
            email: 'a@b.c',
            created_at: '2024-01-01',
            role: 'user',
            english_dialect: 'auto',
          })
        : undefined,
    );
    const banner = within(await screen.findByRole('banner'));
    expect(banner.getByText('Ada')).toBeInTheDocument();
    expect(banner.getByRole('link', { name: 'Inkwell' })).toHaveAttribute('href', '/');
    await user.click(banner.getByRole('button', { name: 'Account menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'My Files' }));
    expect(await screen.findByRole('heading', { name: 'My Files' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Close My Files' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'My Files' })).toBeNull());
    await user.click(await banner.findByRole('button', { name: 'Account menu' }));
    await user.click(screen.getByRole('menuitem', { name: 'Account' }));
    await waitFor(() => expect(location()).toHaveTextContent(/^\/account$/));
    expect(await screen.findByRole('heading', { name: 'Your account' })).toBeInTheDocument();
  });

  it('offers Admin in the account menu to operators only', async () => {
    signIn('Ada');
    const profile = (role: string) => (req: { path: string }) =>
      req.path === 'user'
        ? json(200, {
            first_name: 'Ada',
            last_name: 'L',
            email: 'a@b.c',
            created_at: '2024-01-01',
            role,
            english_dialect: 'auto',
          })
        : undefined;
    const member = setup('/faq', profile('user'));
    await member.user.click(await screen.findByRole('button', { name: 'Account menu' }));
    expect(await screen.findByRole('menuitem', { name: 'Logout' })).toBeInTheDocument();
    await waitFor(() => expect(callsTo(member.fetchMock, 'user')).toHaveLength(1));
    expect(screen.queryByRole('menuitem', { name: 'Admin' })).toBeNull();
    cleanup();

    // The operator's profile is held: no item shows before Admin can take its place, so Logout
    // never moves down under a pointer on its way to it.
    let answerProfile = () => {};
    const profileHeld = new Promise<void>((r) => (answerProfile = r));
    const operator = setup('/faq', (req) =>
      req.path === 'user' ? profileHeld.then(() => profile('operator')(req)) : undefined,
    );
    await operator.user.click(await screen.findByRole('button', { name: 'Account menu' }));
    await waitFor(() => expect(callsTo(operator.fetchMock, 'user')).toHaveLength(1));
    expect(screen.getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Loading…']);
    answerProfile();
    await screen.findByRole('menuitem', { name: 'Admin' });
    // Focus moves to the first item, as when the items were there at the opening.
    await waitFor(() => expect(screen.getByRole('menuitem', { name: 'My Files' })).toHaveFocus());
    expect(screen.getAllByRole('menuitem').map((i) => i.textContent)).toEqual([
      'My Files',
      'Account',
      'Admin',
      'Logout',
    ]);
    await operator.user.click(screen.getByRole('menuitem', { name: 'Admin' }));
    await waitFor(() => expect(location()).toHaveTextContent(/^\/admin$/));
  });

  it('Logout shows "Logging out..." for 2 seconds, clears the session and goes to /login', async () => {
    signIn('Ada');
    const { user, fetchMock } = setup('/faq', (req) =>
      req.path === 'logout' ? json(200, { message: 'Logged out' }) : undefined,
    );
    await user.click(await screen.findByRole('button', { name: 'Account menu' }));
    const started = Date.now();
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));
    expect(await screen.findByText('Logging out...')).toBeInTheDocument();
    await waitFor(() => expect(location()).toHaveTextContent(/^\/login$/), { timeout: 4000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(localStorage.getItem('firstName')).toBeNull();
    expect(callsTo(fetchMock, 'logout')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Account menu' })).toBeNull();
  });

  it('keeps "Logging out..." up and still goes to /login when a 401 ends the session meanwhile', async () => {
    // The logout ends the server's session first: a request sent meanwhile (the page's polls)
    // is answered 401, its refresh too, and the client clears the session before the modal's
    // 2 s are over. That takes the account menu away, but not the modal or the way to /login.
    signIn('Ada');
    let answerLogout = () => {};
    const logoutHeld = new Promise<void>((r) => (answerLogout = r));
    const { user } = setup('/faq', (req) => {
      if (req.path === 'logout') return logoutHeld.then(() => json(200, { message: 'Logged out' }));
      if (req.path === 'probe' || req.path === 'token/refresh') {
        return json(401, { error: 'Invalid token' });
      }
      return undefined;
    });
    await user.click(await screen.findByRole('button', { name: 'Account menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));
    expect(await screen.findByText('Logging out...')).toBeInTheDocument();
    await expect(apiRequest('probe')).rejects.toThrow();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Account menu' })).toBeNull());
    expect(screen.getByText('Logging out...')).toBeInTheDocument();
    answerLogout();
    await waitFor(() => expect(location()).toHaveTextContent(/^\/login$/), { timeout: 4000 });
  });

  it('shows the server alert with its title until closed', async () => {
    const { user } = setup('/faq', (req) =>
      req.path === 'alerts/latest'
        ? json(200, {
            message: 'Maintenance tonight',
            title: 'Heads up',
            severity: 'warning',
            isVisible: true,
          })
        : undefined,
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Heads up');
    expect(alert).toHaveTextContent('Maintenance tonight');
    await user.click(within(alert).getByRole('button', { name: 'Close alert' }));
    expect(screen.queryByText('Maintenance tonight')).toBeNull();
  });
});

describe('side drawer', () => {
  it('has New Topic, the Help group and links; static pages open in a new tab', async () => {
    const { user } = setup('/faq');
    await user.click(await screen.findByRole('button', { name: 'Open menu' }));
    const nav = within(screen.getByRole('navigation', { name: 'Main' }));
    expect(nav.getByRole('button', { name: 'New Topic' })).toBeInTheDocument();
    expect(nav.getByRole('link', { name: 'Privacy' })).toHaveAttribute('target', '_blank');
    expect(nav.getByRole('link', { name: 'Privacy' })).toHaveAttribute('href', '/privacy.html');
    expect(nav.getByRole('link', { name: 'Terms' })).toHaveAttribute('href', '/terms.html');
    expect(nav.getByRole('link', { name: 'About' })).toHaveAttribute('href', '/about');
    expect(nav.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/register');
    expect(nav.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    const help = nav.getByRole('button', { name: 'Help' });
    expect(help).toHaveAttribute('aria-expanded', 'true');
    await user.click(help);
    expect(help).toHaveAttribute('aria-expanded', 'false');
    await waitFor(() => expect(nav.queryByRole('link', { name: 'FAQ' })).toBeNull());
  });

  it('closes after navigation on small screens', async () => {
    const { user } = setup('/faq');
    await user.click(await screen.findByRole('button', { name: 'Open menu' }));
    await user.click(
      within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'About' }),
    );
    expect(await screen.findByRole('heading', { name: 'About Inkwell' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull());
  });

  it('Contact opens the Contact Us dialog', async () => {
    const { user } = setup('/faq');
    await user.click(await screen.findByRole('button', { name: 'Open menu' }));
    await user.click(
      within(screen.getByRole('navigation', { name: 'Main' })).getByRole('button', {
        name: 'Contact',
      }),
    );
    expect(await screen.findByRole('dialog', { name: 'Contact Us' })).toBeInTheDocument();
  });
});

describe('about', () => {
  it('shows the features, GET STARTED to the root and the copyright', async () => {
    setup('/about');
    for (const title of ['Intelligent Chat', 'File Analysis', 'URL Analysis', 'Contact Us']) {
      expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
    }
    expect(screen.getByRole('link', { name: 'GET STARTED' })).toHaveAttribute('href', '/');
    expect(screen.getByText(/© \d{4} Inkwell/)).toBeInTheDocument();
  });
});
