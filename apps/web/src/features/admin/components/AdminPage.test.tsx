import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AdminOverviewResponse, AdminUser } from '@inkwell/contract';
import {
  callsTo,
  json,
  mockFetch,
  renderWithProviders,
  signIn,
  type MockHandler,
} from '../../../test/utils';
import { AdminPage } from './AdminPage';

const OVERVIEW: AdminOverviewResponse = {
  registration: { mode: 'domain', domains: ['example.com', 'example.org'] },
  model: {
    available: false,
    state: 'unavailable',
    progress: null,
    name: 'llama:tiny.gguf',
    reason: 'The assistant is unavailable right now; the operator has been told.',
    detail: 'set MODEL_PATH',
    next_retry_at: null,
    last_ok_at: null,
    queued: 0,
  },
  alert: { message: '', severity: 'info', isVisible: false },
  prompt_limit: 20,
};
const user = (over: Partial<AdminUser>): AdminUser => ({
  id: 2,
  email: 'grace@example.com',
  first_name: 'Grace',
  last_name: 'Hopper',
  role: 'user',
  created_at: '2026-01-02T10:00:00.000Z',
  last_seen_at: null,
  disabled: false,
  files: 3,
  storage_bytes: 1536,
  prompts_today: 4,
  ...over,
});
const USERS = [
  user({ id: 1, email: 'ops@example.com', first_name: 'Ada', role: 'operator', files: 0 }),
  user({}),
];

function setup(handler: MockHandler = () => undefined, overview = OVERVIEW) {
  signIn('Ada');
  const fetchMock = mockFetch(
    (req) => handler(req) ?? (req.path === 'admin/users' ? json(200, { users: USERS }) : undefined),
  );
  const actor = userEvent.setup();
  renderWithProviders(<AdminPage overview={overview} currentUserEmail="ops@example.com" />);
  return { actor, fetchMock };
}
const region = (name: string) => within(screen.getByRole('region', { name }));

describe('AdminPage', () => {
  it('shows the model, who may sign up and every account with its activity', async () => {
    setup();
    expect(screen.getByRole('heading', { name: 'Admin', level: 1 })).toBeInTheDocument();
    const service = region('Service');
    expect(service.getByText('llama:tiny.gguf: unavailable')).toBeInTheDocument();
    expect(service.getByText('set MODEL_PATH')).toBeInTheDocument();
    expect(
      service.getByText(
        'Addresses at the allowed domains, others by invitation: example.com, example.org',
      ),
    ).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Users' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    const grace = within(rows[2]!);
    for (const text of ['grace@example.com', 'user', 'Never', '3', '1.5 KB', '4', 'Active']) {
      expect(grace.getByText(text)).toBeInTheDocument();
    }
    // The operator's own row: no disabling or deleting oneself.
    expect(within(rows[1]!).getByText('You')).toBeInTheDocument();
    expect(within(rows[1]!).queryByRole('button')).toBeNull();
  });

  it('shows the contact messages, and that they are not mailed without CONTACT_TO', async () => {
    setup((req) =>
      req.path === 'admin/contact-messages'
        ? json(200, {
            mailed_to: null,
            messages: [
              {
                id: 2,
                name: 'Alan',
                email: 'alan@mail.test',
                message: 'Can I have an account?',
                created_at: '2026-11-27T10:00:00.000Z',
              },
            ],
          })
        : undefined,
    );
    const section = region('Contact messages');
    expect(
      await section.findByText('CONTACT_TO is not set, so they are not mailed: read them here.'),
    ).toBeInTheDocument();
    const list = section.getByRole('list', { name: 'Contact messages' });
    expect(within(list).getByText('Can I have an account?')).toBeInTheDocument();
    expect(within(list).getByRole('link', { name: 'alan@mail.test' })).toHaveAttribute(
      'href',
      'mailto:alan@mail.test',
    );
  });

  it('disables and enables an account and shows the fresh list', async () => {
    let users = USERS;
    const { actor, fetchMock } = setup((req) => {
      if (req.path === 'admin/users/2/disable') {
        users = [USERS[0]!, user({ disabled: true })];
        return json(200, users[1]);
      }
      return req.path === 'admin/users' ? json(200, { users }) : undefined;
    });
    await actor.click(await screen.findByRole('button', { name: 'Disable grace@example.com' }));
    expect(await screen.findByRole('button', { name: 'Enable grace@example.com' })).toBeEnabled();
    expect(screen.getByText('Disabled')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'admin/users/2/disable')[0]?.[1]?.method).toBe('POST');
  });

  it('deletes an account only after confirmation, and says so', async () => {
    const { actor, fetchMock } = setup((req) =>
      req.path === 'admin/users/2' && req.method === 'DELETE'
        ? json(200, { success: true, message: 'The account has been deleted.' })
        : undefined,
    );
    await actor.click(await screen.findByRole('button', { name: 'Delete grace@example.com' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Delete this account?' }));
    expect(dialog.getByText(/grace@example\.com/)).toBeInTheDocument();
    await actor.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(fetchMock, 'admin/users/2')).toHaveLength(0);
    await actor.click(screen.getByRole('button', { name: 'Delete grace@example.com' }));
    await actor.click(
      within(screen.getByRole('dialog', { name: 'Delete this account?' })).getByRole('button', {
        name: 'Delete account',
      }),
    );
    expect(await screen.findByText('The account has been deleted.')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'admin/users/2')).toHaveLength(1);
  });

  it('sends an invitation and shows its link; shows the server refusal otherwise', async () => {
    const { actor, fetchMock } = setup((req) => {
      if (req.path !== 'admin/invitations') return undefined;
      const email = (req.body as { email: string }).email;
      return email === 'taken@example.com'
        ? json(409, { error: 'An account with this email already exists' })
        : json(201, {
            email,
            link: 'https://inkwell.example.com/register?invite=abc&email=new%40x.test',
            expires_at: '2026-01-09T10:00:00.000Z',
            message: `Invitation sent to ${email}.`,
          });
    });
    const invitations = region('Invitations');
    await actor.type(invitations.getByLabelText('Email to invite'), 'new@x.test');
    await actor.click(invitations.getByRole('button', { name: 'Send invitation' }));
    expect(await invitations.findByText(/Invitation sent to new@x\.test\./)).toBeInTheDocument();
    expect(invitations.getByLabelText('Invitation link')).toHaveValue(
      'https://inkwell.example.com/register?invite=abc&email=new%40x.test',
    );
    expect(callsTo(fetchMock, 'admin/invitations')[0]?.[1]?.body).toBe(
      JSON.stringify({ email: 'new@x.test' }),
    );
    await actor.type(invitations.getByLabelText('Email to invite'), 'taken@example.com');
    await actor.click(invitations.getByRole('button', { name: 'Send invitation' }));
    expect(
      await invitations.findByText('An account with this email already exists'),
    ).toBeInTheDocument();
  });

  it('shows a banner to every visitor', async () => {
    const shown = {
      message: 'Down at 18:00',
      severity: 'warning',
      title: 'Heads up',
      isVisible: true,
    };
    const { actor, fetchMock } = setup((req) => {
      if (req.path === 'admin/alert' && req.method === 'PUT') return json(200, shown);
      return undefined;
    });
    const banner = region('Alert banner');
    expect(banner.getByText('No banner is shown.')).toBeInTheDocument();
    expect(banner.getByRole('button', { name: 'Clear banner' })).toBeDisabled();
    await actor.click(banner.getByRole('button', { name: 'Show banner' }));
    expect(banner.getByText('Message is required')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'admin/alert')).toHaveLength(0);

    await actor.click(banner.getByRole('combobox', { name: 'Severity' }));
    await actor.click(await screen.findByRole('option', { name: 'warning' }));
    await actor.type(banner.getByLabelText('Title (optional)'), 'Heads up');
    await actor.type(banner.getByRole('textbox', { name: 'Message' }), 'Down at 18:00');
    await actor.click(banner.getByRole('button', { name: 'Show banner' }));
    await waitFor(() => expect(callsTo(fetchMock, 'admin/alert')).toHaveLength(1));
    expect(JSON.parse(String(callsTo(fetchMock, 'admin/alert')[0]?.[1]?.body))).toEqual({
      message: 'Down at 18:00',
      severity: 'warning',
      title: 'Heads up',
    });
    expect(await screen.findByText('The banner is shown to every visitor.')).toBeInTheDocument();
  });

  it('shows the banner being shown, and clears it', async () => {
    const shown = { message: 'Down at 18:00', severity: 'warning', isVisible: true } as const;
    const { actor, fetchMock } = setup(
      (req) =>
        req.path === 'admin/alert' && req.method === 'DELETE'
          ? json(200, { message: '', severity: 'info', isVisible: false })
          : undefined,
      { ...OVERVIEW, alert: shown },
    );
    const banner = region('Alert banner');
    expect(banner.getByText('Down at 18:00')).toBeInTheDocument();
    await actor.click(banner.getByRole('button', { name: 'Clear banner' }));
    expect(await screen.findByText('The banner is cleared.')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'admin/alert')[0]?.[1]?.method).toBe('DELETE');
  });
});
