import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  callsTo,
  json,
  mockFetch,
  renderWithProviders,
  signIn,
  type MockHandler,
} from '../../../test/utils';
import { AccountPage } from './AccountPage';
import { PASSWORD_MESSAGES } from './ChangePasswordForm';
import { goTo } from './DeleteAccountSection';

const USER = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  created_at: '2024-03-05T10:00:00.000Z',
  role: 'user',
  english_dialect: 'auto',
};

function setup(handler: MockHandler = () => undefined) {
  signIn('Ada');
  const fetchMock = mockFetch(
    (req) =>
      handler(req) ?? (req.path === 'user' && req.method === 'GET' ? json(200, USER) : undefined),
  );
  const user = userEvent.setup();
  renderWithProviders(<AccountPage />, { route: '/account', path: '/account' });
  return { user, fetchMock };
}
const profile = () => within(screen.getByRole('region', { name: 'Profile' }));

describe('AccountPage profile', () => {
  it('shows the fields and the creation date', async () => {
    setup();
    expect(await screen.findByText('ada@example.com')).toBeInTheDocument();
    expect(screen.getByText(/Account created on/)).toHaveTextContent('2024');
    expect(screen.getByRole('heading', { name: 'Your account' })).toBeInTheDocument();
  });

  it('edits one field at a time; Save only when changed; Cancel restores', async () => {
    const { user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Edit first name' }));
    expect(profile().getByRole('button', { name: 'Edit last name' })).toBeDisabled();
    expect(profile().getByRole('button', { name: 'Edit email' })).toBeDisabled();
    const save = profile().getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    const input = profile().getByLabelText('First name');
    expect(input).toHaveFocus();
    await user.type(input, 'x');
    expect(save).toBeEnabled();
    await user.click(profile().getByRole('button', { name: 'Cancel' }));
    expect(profile().getByText('Ada')).toBeInTheDocument();
    expect(profile().getByRole('button', { name: 'Edit last name' })).toBeEnabled();
  });

  it('Enter saves; the value is stored, the name updated and the server message shown', async () => {
    const { user, fetchMock } = setup((req) =>
      req.method === 'PUT'
        ? json(200, { ...USER, first_name: 'Augusta', message: 'User updated successfully' })
        : undefined,
    );
    await user.click(await screen.findByRole('button', { name: 'Edit first name' }));
    const input = profile().getByLabelText('First name');
    await user.clear(input);
    await user.type(input, 'Augusta{Enter}');
    expect(await screen.findByText('User updated successfully')).toBeInTheDocument();
    const put = callsTo(fetchMock, 'user').find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ first_name: 'Augusta' });
    expect(localStorage.getItem('first_name')).toBe('Augusta');
    expect(localStorage.getItem('firstName')).toBe('Augusta');
    expect(profile().getByText('Augusta')).toBeInTheDocument();
  });

  it('asks for the current password to change the email, sends it, and never stores it', async () => {
    const { user, fetchMock } = setup((req) =>
      req.method === 'PUT'
        ? json(200, { ...USER, email: 'new@example.com', message: 'ok', access_token: 'access-2' })
        : undefined,
    );
    await user.click(await screen.findByRole('button', { name: 'Edit email' }));
    const input = profile().getByLabelText('Email');
    await user.clear(input);
    await user.type(input, 'new@example.com');
    const save = profile().getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    await user.type(profile().getByLabelText('Current password'), 'my secret pw');
    await user.click(save);
    await waitFor(() => expect(localStorage.getItem('accessToken')).toBe('access-2'));
    expect(localStorage.getItem('email')).toBe('new@example.com');
    expect(localStorage.getItem('current_password')).toBeNull();
    const put = callsTo(fetchMock, 'user').find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({
      email: 'new@example.com',
      current_password: 'my secret pw',
    });
  });

  it('shows "Current password is incorrect" under the password when the server says so', async () => {
    const { user } = setup((req) =>
      req.method === 'PUT' ? json(400, { error: 'Current password is incorrect' }) : undefined,
    );
    await user.click(await screen.findByRole('button', { name: 'Edit email' }));
    await user.clear(profile().getByLabelText('Email'));
    await user.type(profile().getByLabelText('Email'), 'new@example.com');
    await user.type(profile().getByLabelText('Current password'), 'wrong one{Enter}');
    expect(await profile().findByText('Current password is incorrect')).toBeInTheDocument();
    expect(profile().getByLabelText('Email')).toHaveValue('new@example.com');
  });

  it('409 on email shows "Email already exists"; other failures "Error updating user data"', async () => {
    let answer = json(409, { error: 'Email already exists' });
    const { user } = setup((req) => (req.method === 'PUT' ? answer : undefined));
    await user.click(await screen.findByRole('button', { name: 'Edit email' }));
    const input = profile().getByLabelText('Email');
    await user.clear(input);
    await user.type(input, 'taken@example.com');
    await user.type(profile().getByLabelText('Current password'), 'my secret pw{Enter}');
    expect(await profile().findByText('Email already exists')).toBeInTheDocument();
    answer = json(500, { error: 'boom' });
    await user.click(profile().getByRole('button', { name: 'Save' }));
    expect(await profile().findByText('Error updating user data')).toBeInTheDocument();
  });
});

describe('AccountPage password and data', () => {
  it('Change password is disabled while both fields are empty; success clears the fields', async () => {
    const { user, fetchMock } = setup((req) =>
      req.path === 'change_password'
        ? json(200, { success: true, message: 'Password changed' })
        : undefined,
    );
    const section = within(await screen.findByRole('region', { name: 'Change password' }));
    const button = section.getByRole('button', { name: 'Change password' });
    expect(button).toBeDisabled();
    await user.type(section.getByLabelText('Current password'), 'old-password');
    expect(button).toBeEnabled();
    await user.type(section.getByLabelText('New password'), 'short');
    await user.click(button);
    expect(section.getByText('Password must be at least 8 characters')).toBeInTheDocument();
    await user.type(section.getByLabelText('New password'), '-but-longer');
    await user.click(button);
    expect(await screen.findByText('Password changed successfully!')).toBeInTheDocument();
    expect(section.getByLabelText('Current password')).toHaveValue('');
    expect(section.getByLabelText('New password')).toHaveValue('');
    expect(JSON.parse(String(callsTo(fetchMock, 'change_password')[0]?.[1]?.body))).toEqual({
      current_password: 'old-password',
      new_password: 'short-but-longer',
    });
  });

  it('shows the change-password failure message', async () => {
    const { user } = setup((req) =>
      req.path === 'change_password' ? json(400, { error: 'Wrong' }) : undefined,
    );
    const section = within(await screen.findByRole('region', { name: 'Change password' }));
    await user.type(section.getByLabelText('Current password'), 'old-password');
    await user.type(section.getByLabelText('New password'), 'new-password');
    await user.click(section.getByRole('button', { name: 'Change password' }));
    expect(
      await section.findByText('Error changing password, please try again.'),
    ).toBeInTheDocument();
  });

  it('says so under the field when the current password is wrong', async () => {
    const { user } = setup((req) =>
      req.path === 'change_password'
        ? json(400, { error: 'Current password is incorrect' })
        : undefined,
    );
    const section = within(await screen.findByRole('region', { name: 'Change password' }));
    await user.type(section.getByLabelText('Current password'), 'not-my-password');
    await user.type(section.getByLabelText('New password'), 'new-password');
    await user.click(section.getByRole('button', { name: 'Change password' }));
    const field = section.getByLabelText('Current password');
    await waitFor(() => expect(field).toHaveAccessibleDescription(PASSWORD_MESSAGES.wrongCurrent));
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(section.queryByText(PASSWORD_MESSAGES.failed)).toBeNull();
  });

  it('downloads the data as user_data.csv', async () => {
    const createObjectURL = vi.fn(() => 'blob:x');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      expect(this.download).toBe('user_data.csv');
    });
    let answer = new Response('a,b', { status: 200 });
    const { user } = setup((req) => (req.path === 'data-portability' ? answer : undefined));
    await user.click(await screen.findByRole('button', { name: 'Download Your Data' }));
    expect(
      await screen.findByText('Your data has been downloaded successfully.'),
    ).toBeInTheDocument();
    expect(click).toHaveBeenCalledTimes(1);
    answer = json(500, { error: 'x' });
    await user.click(screen.getByRole('button', { name: 'Download Your Data' }));
    expect(
      await screen.findByText('Error downloading data, please try again.'),
    ).toBeInTheDocument();
  });

  it('deletes the account after confirmation, clears storage and goes to /register', async () => {
    const toRegister = vi.spyOn(goTo, 'register').mockImplementation(() => {});
    let answer = json(500, { error: 'x' });
    const { user } = setup((req) => (req.path === 'delete_account' ? answer : undefined));
    localStorage.setItem('something', 'else');
    await user.click(await screen.findByRole('button', { name: 'Delete your account' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Delete your account?' }));
    // Nothing is sent until the password is typed.
    expect(dialog.getByRole('button', { name: 'Delete account' })).toBeDisabled();
    await user.type(dialog.getByLabelText('Current password'), 'my password');
    await user.click(dialog.getByRole('button', { name: 'Delete account' }));
    expect(
      await dialog.findByText('Error deleting account, please try again.'),
    ).toBeInTheDocument();
    expect(toRegister).not.toHaveBeenCalled();
    answer = json(200, { success: true, message: 'Account deleted' });
    await user.click(dialog.getByRole('button', { name: 'Delete account' }));
    await waitFor(() => expect(toRegister).toHaveBeenCalledTimes(1));
    expect(localStorage.length).toBe(0);
  });
});

describe('AccountPage proofreading', () => {
  it('saves the English proofreading checks against as soon as it is chosen', async () => {
    const { user, fetchMock } = setup((req) =>
      req.method === 'PUT'
        ? json(200, {
            ...USER,
            english_dialect: 'british',
            message: 'Profile updated successfully',
          })
        : undefined,
    );
    const section = within(await screen.findByRole('region', { name: 'Proofreading' }));
    const select = section.getByRole('combobox', { name: 'English for proofreading' });
    expect(select).toHaveTextContent('Detect from each text');
    await user.click(select);
    await user.click(await screen.findByRole('option', { name: 'British English' }));
    expect(await screen.findByText('Profile updated successfully')).toBeInTheDocument();
    const put = callsTo(fetchMock, 'user').find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ english_dialect: 'british' });
    await waitFor(() => expect(select).toHaveTextContent('British English'));
  });
});

describe('AccountPage personal dictionary', () => {
  it('adds a word with Enter, lists it, removes it', async () => {
    let words = ['IHEP'];
    const { user, fetchMock } = setup((req) => {
      if (req.path === 'dictionary' && req.method === 'GET') return json(200, { words });
      if (req.path === 'dictionary' && req.method === 'POST') {
        words = [...words, (req.body as { word: string }).word].sort();
        return json(201, { words });
      }
      if (req.path.startsWith('dictionary/') && req.method === 'DELETE') {
        words = words.filter((w) => w !== decodeURIComponent(req.path.slice(11)));
        return json(200, { words });
      }
      return undefined;
    });
    const section = within(await screen.findByRole('region', { name: 'Personal dictionary' }));
    const list = await section.findByRole('list', { name: 'Your dictionary' });
    expect(within(list).getByText('IHEP')).toBeInTheDocument();
    await user.type(section.getByLabelText('Add a word'), 'Asha{Enter}');
    await waitFor(() => expect(within(list).getByText('Asha')).toBeInTheDocument());
    expect(section.getByLabelText('Add a word')).toHaveValue('');
    expect(
      callsTo(fetchMock, 'dictionary').some(([, init]) => init?.body === '{"word":"Asha"}'),
    ).toBe(true);
    await user.click(section.getByRole('button', { name: 'Remove IHEP' }));
    await waitFor(() => expect(within(list).queryByText('IHEP')).toBeNull());
  });

  it('says what is wrong with a word that is not one, and sends nothing', async () => {
    const { user, fetchMock } = setup((req) =>
      req.path === 'dictionary' ? json(200, { words: [] }) : undefined,
    );
    const section = within(await screen.findByRole('region', { name: 'Personal dictionary' }));
    await user.type(section.getByLabelText('Add a word'), 'two words{Enter}');
    expect(
      await section.findByText(
        'One word: letters and digits, with apostrophes, hyphens or dots inside it',
      ),
    ).toBeInTheDocument();
    expect(callsTo(fetchMock, 'dictionary').filter(([, i]) => i?.method === 'POST')).toEqual([]);
  });
});
