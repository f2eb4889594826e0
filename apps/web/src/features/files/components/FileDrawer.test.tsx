import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '../../../app/routes';
import {
  callsTo,
  json,
  mockFetch,
  mockXhr,
  renderWithProviders,
  signIn,
  type FakeXhrAnswer,
  type MockHandler,
} from '../../../test/utils';

const FILE = { id: 7, file_name: 'report.pdf', type: 'pdf', size: 2048, created_at: '' };
const NOTES = { id: 8, file_name: 'notes.txt', type: 'txt', size: 10, created_at: '' };
const listing = (files: unknown[] = [FILE, NOTES]) =>
  json(200, { files, used_bytes: 3 * 1024 * 1024, quota_bytes: 100 * 1024 * 1024 });

function setup(handler: MockHandler = () => undefined, route = '/') {
  signIn('Ada');
  const fetchMock = mockFetch((req) => {
    const answer = handler(req);
    if (answer) return answer;
    if (req.path === 'alerts/latest') return json(200, { message: '', isVisible: false });
    if (req.path === 'chat/history')
      return json(200, { messages: [], current: 0, max: 20, started_at: null });
    if (req.path === 'jobs') return json(200, { jobs: [], next_cursor: null });
    if (req.path === 'my_files') return listing();
    return undefined;
  });
  const user = userEvent.setup();
  renderWithProviders(<AppRoutes />, { route });
  return { user, fetchMock };
}

async function openDrawer(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Account menu' }));
  await user.click(await screen.findByRole('menuitem', { name: 'My Files' }));
  return within(await screen.findByRole('dialog', { name: 'My Files' }));
}

async function menuAction(
  user: ReturnType<typeof userEvent.setup>,
  name: string,
  file = 'report.pdf',
) {
  const drawer = await openDrawer(user);
  await user.click(await drawer.findByRole('button', { name: `Actions for ${file}` }));
  await user.click(await screen.findByRole('menuitem', { name }));
}

describe('file drawer', () => {
  it('lists files with their sizes and the storage used', async () => {
    const { user } = setup();
    const drawer = await openDrawer(user);
    expect(await drawer.findByText('report.pdf')).toBeInTheDocument();
    expect(drawer.getByText('notes.txt')).toBeInTheDocument();
    expect(drawer.getByText('3.0 MB of 100 MB used')).toBeInTheDocument();
  });

  it("shows 'Fetching files...' while loading, then 'Your folder is empty.'", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { user } = setup((req) =>
      req.path === 'my_files' ? gate.then(() => listing([])) : undefined,
    );
    const drawer = await openDrawer(user);
    expect(await drawer.findByText('Fetching files...')).toBeInTheDocument();
    release();
    expect(await drawer.findByText('Your folder is empty.')).toBeInTheDocument();
  });

  it('offers the full context menu', async () => {
    const { user } = setup();
    const drawer = await openDrawer(user);
    await user.click(await drawer.findByRole('button', { name: 'Actions for report.pdf' }));
    const items = within(await screen.findByRole('menu')).getAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual([
      'Open',
      'Proofread',
      'Sentiment Analysis',
      'Summarize',
      'Ask Questions',
      'Translate',
      'Download',
      'Rename',
      'Delete',
      'Delete All',
    ]);
  });

  it('Summarize: closes the drawer, goes back to /, posts the start, success and result', async () => {
    const { user, fetchMock } = setup(
      (req) => (req.path === 'summarize' ? json(200, { summary: 'A short summary.' }) : undefined),
      '/faq',
    );
    await menuAction(user, 'Summarize');
    expect(await screen.findByText('Starting Summarize for report.pdf...')).toBeInTheDocument();
    expect(await screen.findByText('A short summary.')).toBeInTheDocument();
    expect(screen.getByText('Summarize completed for report.pdf.')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
    const body = callsTo(fetchMock, 'summarize')[0]![1]!.body as FormData;
    expect(body.get('file_id')).toBe('7');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'My Files' })).toBeNull());
  });

  it('a failed action posts Error in <action>: <message>', async () => {
    const { user } = setup((req) =>
      req.path === 'bulk-sentiment-analysis' ? json(400, { error: 'No text in file' }) : undefined,
    );
    await menuAction(user, 'Sentiment Analysis');
    expect(
      await screen.findByText('Starting Sentiment Analysis for report.pdf...'),
    ).toBeInTheDocument();
    expect(
      await screen.findByText('Error in analyzeSentiment: No text in file'),
    ).toBeInTheDocument();
  });

  it('Proofread highlights the corrections; sentiment shows the chart and the table', async () => {
    const { user } = setup((req) => {
      if (req.path === 'proofread') {
        return json(200, {
          response: 'Two fixes.',
          issues: [
            {
              message: 'Spelling',
              offset: 4,
              length: 3,
              suggestions: ['the'],
              rule: 'Spelling',
              original: 'teh',
              correction: 'the',
            },
          ],
          corrected_text: 'Fix the typo',
          truncated: false,
          ai: false,
        });
      }
      if (req.path === 'bulk-sentiment-analysis') {
        return json(200, {
          response: 'Mostly happy.',
          overall: { label: 'positive', score: 0.5 },
          items: [{ text: 'I love it', label: 'positive', score: 0.8 }],
          ai: false,
        });
      }
      return undefined;
    });
    await menuAction(user, 'Proofread');
    const mark = await screen.findByText('the', { selector: 'mark' });
    expect(mark).toHaveAttribute('title', 'Was “teh”: Spelling');
    expect(screen.getByText('Proofread completed for report.pdf.')).toBeInTheDocument();
    await menuAction(user, 'Sentiment Analysis');
    expect(await screen.findByText('Mostly happy.')).toBeInTheDocument();
    expect(await screen.findByRole('list', { name: 'Sentiment distribution' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'I love it' })).toBeInTheDocument();
  });

  it('Translate: asks the language, then posts Translating… and the translation', async () => {
    const { user, fetchMock } = setup((req) =>
      req.path === 'translate_stored_file' ? json(200, { translation: 'Bonjour' }) : undefined,
    );
    await menuAction(user, 'Translate');
    const dialog = within(
      await screen.findByRole('dialog', { name: 'Select Translation Language' }),
    );
    expect(dialog.getByRole('button', { name: 'Translate' })).toBeDisabled();
    await user.click(dialog.getByRole('combobox', { name: /Target language/ }));
    const options = within(screen.getByRole('listbox')).getAllByRole('option');
    expect(options).toHaveLength(27);
    await user.click(screen.getByRole('option', { name: 'French' }));
    await user.click(dialog.getByRole('button', { name: 'Translate' }));
    expect(await screen.findByText('Translating report.pdf to French...')).toBeInTheDocument();
    expect(await screen.findByText('Translation completed successfully.')).toBeInTheDocument();
    expect(screen.getByText('Bonjour')).toBeInTheDocument();
    const body = callsTo(fetchMock, 'translate_stored_file')[0]![1]!.body as FormData;
    expect([body.get('file_id'), body.get('target_language')]).toEqual(['7', 'French']);
  });

  it.each([
    [json(200, { translation: '  ' }), 'Translation failed.'],
    [json(502, { error: 'AI server down' }), 'Translation failed: AI server down.'],
  ])('Translate failure posts %#', async (answer, message) => {
    const { user } = setup((req) => (req.path === 'translate_stored_file' ? answer : undefined));
    await menuAction(user, 'Translate');
    await user.click(await screen.findByRole('combobox', { name: /Target language/ }));
    await user.click(screen.getByRole('option', { name: 'German' }));
    await user.click(screen.getByRole('button', { name: 'Translate' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  it('renames with the extension as a fixed suffix', async () => {
    const { user, fetchMock } = setup((req) =>
      req.path === 'rename_file/7'
        ? json(200, { message: 'ok', file: { ...FILE, file_name: 'final.pdf' } })
        : undefined,
    );
    await menuAction(user, 'Rename');
    const dialog = within(await screen.findByRole('dialog', { name: 'Rename File' }));
    const field = dialog.getByRole('textbox', { name: 'New name' });
    expect(field).toHaveValue('report');
    expect(dialog.getByText('.pdf')).toBeInTheDocument();
    // Opened focused with the name selected: typing replaces it.
    await waitFor(() => expect(field).toHaveFocus());
    expect(field).toHaveProperty('selectionStart', 0);
    expect(field).toHaveProperty('selectionEnd', 'report'.length);
    await user.keyboard('final');
    await user.click(dialog.getByRole('button', { name: 'Rename' }));
    expect(await screen.findByText('Renamed to final.pdf.')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'rename_file/7')[0]![1]!.body).toBe('{"new_name":"final"}');
  });

  it('deletes one file and all files after confirmation', async () => {
    const { user, fetchMock } = setup((req) =>
      req.method === 'DELETE' ? json(200, { message: 'ok', deleted: 1 }) : undefined,
    );
    await menuAction(user, 'Delete');
    const one = within(await screen.findByRole('dialog', { name: 'Confirm Deletion' }));
    expect(one.getByText('Delete report.pdf? This cannot be undone.')).toBeInTheDocument();
    await user.click(one.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('report.pdf deleted.')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'delete_file/7')).toHaveLength(1);
    await user.click(await screen.findByRole('button', { name: 'Actions for notes.txt' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete All' }));
    const all = within(await screen.findByRole('dialog', { name: 'Confirm Deletion' }));
    await user.click(all.getByRole('button', { name: 'Delete All' }));
    await waitFor(() => expect(callsTo(fetchMock, 'delete_all_files')).toHaveLength(1));
  });

  it("'Delete All Files' under the list deletes the folder after confirmation", async () => {
    const { user, fetchMock } = setup((req) =>
      req.method === 'DELETE' ? json(200, { message: 'ok', deleted: 2 }) : undefined,
    );
    const drawer = await openDrawer(user);
    await user.click(await drawer.findByRole('button', { name: 'Delete All Files' }));
    const all = within(await screen.findByRole('dialog', { name: 'Confirm Deletion' }));
    await user.click(all.getByRole('button', { name: 'Delete All' }));
    await waitFor(() => expect(callsTo(fetchMock, 'delete_all_files')).toHaveLength(1));
  });

  it('an action started from the drawer puts the focus on its Cancel, not back on the menu', async () => {
    const { user } = setup((req) =>
      req.path === 'summarize' ? new Promise<Response>(() => {}) : undefined,
    );
    await menuAction(user, 'Summarize');
    const step = await screen.findByText('Starting Summarize for report.pdf...');
    await waitFor(() =>
      expect(
        within(step.closest('article')!).getByRole('button', { name: 'Cancel' }),
      ).toHaveFocus(),
    );
  });

  it('rejects unsupported and too large files before uploading', async () => {
    const { user, fetchMock } = setup();
    await openDrawer(user);
    const input = (await screen.findByTestId('drawer-file-input')) as HTMLInputElement;
    // user-event would filter by `accept`; a user can still pick "All files" in the dialog.
    fireEvent.change(input, { target: { files: [new File(['x'], 'virus.exe')] } });
    const status = within(await screen.findByRole('list', { name: 'File Upload Status' }));
    expect(
      status.getByText('Unsupported file type. Please select an allowed file.', { exact: false }),
    ).toBeInTheDocument();
    await user.click(status.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('list', { name: 'File Upload Status' })).toBeNull();
    const big = new File(['x'], 'big.txt');
    Object.defineProperty(big, 'size', { value: 3 * 1024 * 1024 });
    fireEvent.change(input, { target: { files: [big] } });
    expect(
      await screen.findByText(
        'File size exceeds the allowed limit. Text files can be at most 2 MB.',
        { exact: false },
      ),
    ).toBeInTheDocument();
    expect(callsTo(fetchMock, 'upload_file')).toHaveLength(0);
  });

  it('opens a text preview with the zoom slider at 16, and says when a type is unsupported', async () => {
    const { user } = setup((req) => {
      if (req.path === 'preview_file/8') {
        return json(200, { kind: 'text', type: 'txt', text: 'Hello notes', truncated: false });
      }
      if (req.path === 'preview_file/7') return json(415, { error: 'nope' });
      return undefined;
    });
    const drawer = await openDrawer(user);
    await user.dblClick(await drawer.findByText('notes.txt'));
    const dialog = within(await screen.findByRole('dialog', { name: 'notes.txt' }));
    expect(await dialog.findByText('Hello notes')).toBeInTheDocument();
    const slider = dialog.getByRole('slider', { name: 'Zoom' });
    expect(slider).toHaveAttribute('aria-valuenow', '16');
    expect(slider).toHaveAttribute('aria-valuemin', '10');
    expect(slider).toHaveAttribute('aria-valuemax', '40');
    await user.click(dialog.getByRole('button', { name: 'Close' }));
    await user.dblClick(await drawer.findByText('report.pdf'));
    expect(await screen.findByText('Unsupported file type')).toBeInTheDocument();
  });
});

describe('file drawer messages (spec §8)', () => {
  const UPLOADED = {
    message: 'File uploaded successfully!',
    file: { id: 9, file_name: 'new.txt', type: 'txt', size: 5, created_at: '' },
  };

  async function uploadThroughDrawer(answer: FakeXhrAnswer) {
    const uploads = mockXhr(() => answer);
    const { user } = setup();
    await openDrawer(user);
    const input = await screen.findByTestId('drawer-file-input');
    fireEvent.change(input, { target: { files: [new File(['hello'], 'new.txt')] } });
    const status = within(await screen.findByRole('list', { name: 'File Upload Status' }));
    return { status, uploads };
  }

  it.each<[string, FakeXhrAnswer, string]>([
    ["the server's message on success", { status: 201, body: UPLOADED }, UPLOADED.message],
    [
      "the server's error text",
      {
        status: 413,
        body: {
          error: 'Your storage is full (100 MB per account). Delete some files to upload more.',
        },
      },
      'Your storage is full (100 MB per account). Delete some files to upload more.',
    ],
    [
      "'Failed to upload file.' when the server sends no error text",
      { status: 500, body: '<html>Internal Server Error</html>' },
      'Failed to upload file.',
    ],
    [
      "'Upload failed: <message>' when no answer arrives",
      'network',
      'Upload failed: An error occurred. Please check your internet connection and try again.',
    ],
  ])('upload status shows %s', async (_name, answer, message) => {
    const { status, uploads } = await uploadThroughDrawer(answer);
    const alert = await status.findByRole('alert');
    expect(alert.textContent).toBe(`new.txt: ${message}`);
    expect(uploads).toHaveLength(1);
    // No dialog to close: the drawer stays usable.
    expect(screen.queryByRole('dialog', { name: 'File Upload Status' })).toBeNull();
  });

  it('uploads several files picked at once, one after the other, each with its status', async () => {
    const uploads = mockXhr((req) =>
      (req.body as FormData).get('file') instanceof File &&
      ((req.body as FormData).get('file') as File).name === 'full.txt'
        ? { status: 413, body: { error: 'Your storage is full.' } }
        : { status: 201, body: UPLOADED, progress: [50] },
    );
    const { user } = setup();
    await openDrawer(user);
    const input = await screen.findByTestId('drawer-file-input');
    expect(input).toHaveAttribute('multiple');
    fireEvent.change(input, {
      target: {
        files: [new File(['a'], 'a.txt'), new File(['x'], 'bad.exe'), new File(['f'], 'full.txt')],
      },
    });
    const status = within(await screen.findByRole('list', { name: 'File Upload Status' }));
    await waitFor(() => expect(status.getAllByRole('alert')).toHaveLength(3));
    expect(status.getAllByRole('alert').map((a) => a.textContent)).toEqual([
      `a.txt: ${UPLOADED.message}`,
      'bad.exe: Unsupported file type. Please select an allowed file.',
      'full.txt: Your storage is full.',
    ]);
    // The unsupported one never left the browser.
    expect(uploads.map((u) => ((u.body as FormData).get('file') as File).name)).toEqual([
      'a.txt',
      'full.txt',
    ]);
  });

  it("Sentiment Analysis with an empty answer posts 'No sentiment analysis response'", async () => {
    const { user } = setup((req) =>
      req.path === 'bulk-sentiment-analysis'
        ? json(200, {
            response: ' ',
            overall: { label: 'neutral', score: 0 },
            items: [],
            ai: false,
          })
        : undefined,
    );
    await menuAction(user, 'Sentiment Analysis');
    expect(await screen.findByText('No sentiment analysis response')).toBeInTheDocument();
    expect(screen.getByText('Sentiment Analysis completed for report.pdf.')).toBeInTheDocument();
  });

  it('a failed download says Error downloading the file <name>. with the reason', async () => {
    const { user } = setup((req) =>
      req.path === 'download_file/7' ? json(404, { error: 'File not found' }) : undefined,
    );
    await menuAction(user, 'Download');
    expect(
      await screen.findByText('Error downloading the file report.pdf. File not found'),
    ).toBeInTheDocument();
  });

  it('failed deletes say Error deleting the file <name>. / Failed to delete the files.', async () => {
    const { user } = setup((req) =>
      req.method === 'DELETE' ? Promise.reject(new TypeError('Failed to fetch')) : undefined,
    );
    await menuAction(user, 'Delete');
    let confirm = within(await screen.findByRole('dialog', { name: 'Confirm Deletion' }));
    await user.click(confirm.getByRole('button', { name: 'Delete' }));
    const network = 'An error occurred. Please check your internet connection and try again.';
    expect(
      await screen.findByText(`Error deleting the file report.pdf. ${network}`),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Actions for notes.txt' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete All' }));
    confirm = within(await screen.findByRole('dialog', { name: 'Confirm Deletion' }));
    await user.click(confirm.getByRole('button', { name: 'Delete All' }));
    expect(await screen.findByText(`Failed to delete the files. ${network}`)).toBeInTheDocument();
    // The files are still listed.
    const drawer = within(screen.getByRole('dialog', { name: 'My Files' }));
    expect(drawer.getByText('report.pdf')).toBeInTheDocument();
  });
});
