import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '../../../app/routes';
import { callsTo, json, mockFetch, renderWithProviders, signIn } from '../../../test/utils';

/** Issue 35: the drawer says where each file is in the search index of Ask my files. */
const file = (id: number, file_name: string, search: string, search_error?: string | null) => ({
  id,
  file_name,
  type: file_name.split('.').pop(),
  size: 2048,
  created_at: '',
  search,
  ...(search_error !== undefined ? { search_error } : {}),
});

function setup(listings: unknown[][]) {
  signIn('Ada');
  let n = 0;
  const fetchMock = mockFetch((req) => {
    if (req.path === 'alerts/latest') return json(200, { message: '', isVisible: false });
    if (req.path === 'chat/history')
      return json(200, { messages: [], current: 0, max: 20, started_at: null });
    if (req.path === 'jobs') return json(200, { jobs: [], next_cursor: null });
    if (req.path === 'my_files') {
      const files = listings[Math.min(n++, listings.length - 1)]!;
      return json(200, { files, used_bytes: 1, quota_bytes: 100 });
    }
    return undefined;
  });
  renderWithProviders(<AppRoutes />, { route: '/' });
  return { fetchMock, user: userEvent.setup() };
}

async function openDrawer(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Account menu' }));
  await user.click(await screen.findByRole('menuitem', { name: 'My Files' }));
  return within(await screen.findByRole('dialog', { name: 'My Files' }));
}

describe('files in the search index', () => {
  it("says 'Searchable', and why a file could not be read", async () => {
    const { user } = setup([
      [
        file(1, 'minutes.docx', 'searchable'),
        file(2, 'scan.pdf', 'unreadable', 'The scan has no readable text'),
        file(3, 'old.txt', 'unreadable', null),
      ],
    ]);
    const drawer = await openDrawer(user);
    const list = await drawer.findByRole('list', { name: 'Files' });
    const item = (name: string) => within(list).getByText(name).closest('li')!;
    expect(await within(list).findByText('minutes.docx')).toBeInTheDocument();
    expect(item('minutes.docx')).toHaveTextContent('2.0 KB, Searchable');
    expect(item('scan.pdf')).toHaveTextContent('Not searchable: The scan has no readable text');
    expect(item('old.txt')).toHaveTextContent('Not searchable: no text could be read');
  });

  it("shows 'Reading...' and refreshes the list until the file is searchable", async () => {
    const { user, fetchMock } = setup([
      [file(4, 'contract.txt', 'reading')],
      [file(4, 'contract.txt', 'reading')],
      [file(4, 'contract.txt', 'searchable')],
    ]);
    const drawer = await openDrawer(user);
    expect(await drawer.findByText('Reading...')).toBeInTheDocument();
    expect(await drawer.findByText('Searchable')).toBeInTheDocument();
    expect(drawer.queryByText('Reading...')).toBeNull();
    expect(callsTo(fetchMock, 'my_files').length).toBeGreaterThanOrEqual(3);
  });
});
