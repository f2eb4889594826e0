import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AskFilesResponse, Job } from '@inkwell/contract';
import { AppRoutes } from '../../app/routes';
import { filesQuestion } from '../../lib/files-question';
import {
  callsTo,
  jobsApi,
  json,
  mockFetch,
  renderWithProviders,
  signIn,
  sse,
  type MockHandler,
} from '../../test/utils';

/** Issue 35: "Ask my files" in the chat input bar, its sources, and the preview at a passage. */
const REPORT = {
  id: 7,
  file_name: 'report.pdf',
  type: 'pdf',
  size: 2048,
  created_at: '',
  search: 'searchable',
};
const NOTES = {
  id: 8,
  file_name: 'notes.txt',
  type: 'txt',
  size: 10,
  created_at: '',
  search: 'searchable',
};
const PAGES_TEXT = 'Page one talks about ships.\fThe keeper is named Ada. She lit the lamp.';
const PASSAGE = 'The keeper is named Ada.';
const START = PAGES_TEXT.indexOf(PASSAGE);
const ANSWER: AskFilesResponse = {
  response: 'The keeper is **Ada**.',
  sources: [
    {
      file_id: 7,
      file_name: 'report.pdf',
      excerpt: PASSAGE,
      where: 'page 2',
      start: START,
      end: START + PASSAGE.length,
    },
    { file_id: 8, file_name: 'notes.txt', excerpt: 'Ada', where: 'section 1', start: 0, end: 3 },
  ],
};

function setup(handler: MockHandler = () => undefined, jobs: Job[] = []) {
  signIn('Ada');
  const fetchMock = mockFetch((req) => {
    const answer = handler(req);
    if (answer) return answer;
    if (req.path === 'alerts/latest') return json(200, { message: '', isVisible: false });
    if (req.path === 'chat/history')
      return json(200, { messages: [], current: 0, max: 20, started_at: null });
    const listed = jobsApi(req, jobs);
    if (listed) return listed;
    if (req.path === 'my_files')
      return json(200, { files: [REPORT, NOTES], used_bytes: 1, quota_bytes: 100 });
    if (req.path === 'preview_file/7' && req.query.get('format') === 'text') {
      return json(200, {
        kind: 'pages',
        type: 'pdf',
        text: PAGES_TEXT,
        pages: [
          { label: 'Page 1', text: 'Page one talks about ships.', ocr: false },
          { label: 'Page 2', text: 'The keeper is named Ada. She lit the lamp.', ocr: false },
        ],
        truncated: false,
      });
    }
    return undefined;
  });
  const user = userEvent.setup();
  renderWithProviders(<AppRoutes />, { route: '/' });
  return { user, fetchMock };
}

const streamed = (result: unknown) =>
  sse([
    { event: 'job', data: { id: 'job-9' } },
    {
      event: 'progress',
      data: { stage: 'searching your files', done: 0, total: 0, queued_ahead: 0, eta_s: null },
    },
    { event: 'done', data: result },
  ]);

const sentBody = (fetchMock: ReturnType<typeof mockFetch>) => {
  const [, init] = callsTo(fetchMock, 'ask_files').at(-1)!;
  return { body: JSON.parse(String(init!.body)) as unknown, headers: new Headers(init!.headers) };
};

/** Types a question the quick way (one paste, not a key per letter) and sends it. */
async function ask(user: ReturnType<typeof userEvent.setup>, text: string) {
  await user.click(screen.getByRole('textbox', { name: 'Message' }));
  await user.paste(text);
  await user.keyboard('{Enter}');
}

const doneJob = (): Job => ({
  id: 'af1',
  kind: 'ask_files',
  state: 'done',
  about: { question: 'Who keeps the light?' },
  progress: null,
  result: ANSWER,
  error: null,
  created_at: new Date().toISOString(),
  finished_at: null,
});

describe('Ask my files', () => {
  it('asks the whole folder with its progress, then shows the answer with its sources as chips', async () => {
    let finish!: () => void;
    const gate = new Promise<void>((r) => (finish = r));
    const { user, fetchMock } = setup((req) => {
      if (req.path !== 'ask_files') return undefined;
      // The answer waits, so the running step can be seen with its progress.
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          const enc = new TextEncoder();
          controller.enqueue(enc.encode('event: job\ndata: {"id":"job-9"}\n\n'));
          controller.enqueue(
            enc.encode(
              'event: progress\ndata: {"stage":"searching your files","done":1,"total":2,"queued_ahead":0,"eta_s":null}\n\n',
            ),
          );
          await gate;
          controller.enqueue(enc.encode(`event: done\ndata: ${JSON.stringify(ANSWER)}\n\n`));
          controller.close();
        },
      });
      return Promise.resolve(
        new Response(body, { headers: { 'Content-Type': 'text/event-stream' } }),
      );
    });
    const toggle = await screen.findByRole('button', { name: 'Ask my files' });
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    expect(await screen.findByText('Asking all your files')).toBeInTheDocument();
    const message = screen.getByRole('textbox', { name: 'Message' });
    expect(message).toHaveAccessibleDescription('Asking all your files');
    await ask(user, 'Who is the keeper?');

    expect(await screen.findByText('Who is the keeper?')).toBeInTheDocument();
    const bar = await screen.findByRole('progressbar', {
      name: 'Progress of the answer from your files',
    });
    await waitFor(() =>
      expect(bar).toHaveAttribute('aria-valuetext', 'Searching your files: part 2 of 2'),
    );
    const { body, headers } = sentBody(fetchMock);
    expect(body).toEqual({ text: 'Who is the keeper?' });
    expect(headers.get('Accept')).toBe('text/event-stream');
    expect(headers.get('Authorization')).toBe('Bearer access-1');
    finish();

    expect(await screen.findByText('Ada', { selector: 'strong' })).toBeInTheDocument();
    const sources = screen.getByRole('list', { name: 'Sources' });
    const chips = within(sources).getAllByRole('button');
    expect(chips.map((c) => c.textContent)).toEqual([
      'report.pdf · page 2',
      'notes.txt · section 1',
    ]);
    // The mode stays on for the next question.
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
  });

  it("a chip opens the file's preview at the passage, marked in the pdf's text (keyboard)", async () => {
    const { user, fetchMock } = setup(undefined, [doneJob()]);
    const sources = await screen.findByRole('list', { name: 'Sources' });
    const chips = within(sources).getAllByRole('button');
    chips[0]!.focus();
    await user.keyboard('{Enter}');
    const dialog = within(await screen.findByRole('dialog', { name: 'report.pdf' }));
    const mark = await dialog.findByTestId('cited-passage');
    expect(mark.tagName).toBe('MARK');
    expect(mark).toHaveTextContent(`Cited passage: ${PASSAGE} End of the cited passage.`);
    expect(dialog.getByText('The cited passage (page 2) is marked.')).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Show passage' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    const previews = callsTo(fetchMock, 'preview_file/').map(([input]) => String(input));
    expect(previews).toEqual([expect.stringMatching(/preview_file\/7\?format=text$/)]);
    await user.click(dialog.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'report.pdf' })).toBeNull());
  });

  it('picks files in the drawer with the keyboard; the input bar shows them', async () => {
    const { user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Ask my files' }));
    await user.click(await screen.findByRole('button', { name: 'Pick files' }));
    const drawer = within(await screen.findByRole('dialog', { name: 'My Files' }));
    const pickNotes = await drawer.findByRole('checkbox', {
      name: 'Pick notes.txt for Ask my files',
    });
    const pickReport = drawer.getByRole('checkbox', { name: 'Pick report.pdf for Ask my files' });
    pickNotes.focus();
    await user.keyboard(' ');
    expect(pickNotes).toBeChecked();
    pickReport.focus();
    await user.keyboard(' ');
    expect(pickReport).toBeChecked();
    await user.click(drawer.getByRole('button', { name: 'Close My Files' }));

    const picked = await screen.findByRole('list', { name: 'Picked files' });
    expect(screen.getByText('Asking 2 picked files:')).toBeInTheDocument();
    expect(
      within(picked)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['notes.txt', 'report.pdf']);
  });

  it('asks only the picked files, each removable from the input bar with the keyboard', async () => {
    filesQuestion.toggle({ id: 8, fileName: 'notes.txt' });
    filesQuestion.toggle({ id: 7, fileName: 'report.pdf' });
    const { user, fetchMock } = setup((req) =>
      req.path === 'ask_files' ? streamed(ANSWER) : undefined,
    );
    const picked = await screen.findByRole('list', { name: 'Picked files' });
    // Removed with the keyboard: the chip is a button named for what it does.
    const removeReport = within(picked).getByRole('button', { name: 'Remove report.pdf' });
    removeReport.focus();
    await user.keyboard('{Enter}');
    expect(within(picked).queryByRole('button', { name: 'Remove report.pdf' })).toBeNull();
    expect(screen.getByText('Asking 1 picked file:')).toBeInTheDocument();

    await ask(user, 'What do the notes say?');
    await screen.findByRole('list', { name: 'Sources' });
    expect(sentBody(fetchMock).body).toEqual({ text: 'What do the notes say?', file_ids: [8] });

    // Turning the mode off forgets the picks: the next question goes to the chat.
    await user.click(screen.getByRole('button', { name: 'Stop asking my files' }));
    expect(screen.getByRole('button', { name: 'Ask my files' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    expect(screen.queryByRole('list', { name: 'Picked files' })).toBeNull();
  });

  it('picking a file in the drawer turns Ask my files on', async () => {
    const { user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Account menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'My Files' }));
    const drawer = within(await screen.findByRole('dialog', { name: 'My Files' }));
    await user.click(await drawer.findByRole('checkbox', { name: /Pick report\.pdf/ }));
    await user.click(drawer.getByRole('button', { name: 'Close My Files' }));
    expect(await screen.findByRole('button', { name: 'Ask my files' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(await screen.findByRole('button', { name: 'Remove report.pdf' })).toBeInTheDocument();
  });

  it("a file's Ask Questions ends Ask my files; turning Ask my files on ends the question mode", async () => {
    const { user } = setup();
    const toggle = await screen.findByRole('button', { name: 'Ask my files' });
    await user.click(toggle);
    await user.click(screen.getByRole('button', { name: 'Account menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'My Files' }));
    const drawer = within(await screen.findByRole('dialog', { name: 'My Files' }));
    await user.click(await drawer.findByRole('button', { name: 'Actions for notes.txt' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Ask Questions' }));
    const message = await screen.findByRole('textbox', { name: 'Message' });
    await waitFor(() => expect(toggle).toHaveAttribute('aria-pressed', 'false'));
    expect(message).toHaveAttribute('placeholder', 'Ask a question about notes.txt');
    await user.click(toggle);
    expect(message).toHaveAttribute('placeholder', 'Ask your files a question');
  });

  it("a refusal (nothing searchable yet) posts 'Error in Ask my files: <reason>'", async () => {
    const { user } = setup((req) =>
      req.path === 'ask_files'
        ? json(409, { error: 'None of the chosen files is searchable yet' })
        : undefined,
    );
    await user.click(await screen.findByRole('button', { name: 'Ask my files' }));
    await ask(user, 'Anything?');
    expect(
      await screen.findByText('Error in Ask my files: None of the chosen files is searchable yet'),
    ).toBeInTheDocument();
    expect(screen.queryByText('Loading...')).toBeNull();
  });

  it('comes back after a reload: the question, the answer and its chips', async () => {
    setup(undefined, [doneJob()]);
    expect(await screen.findByText('Who keeps the light?')).toBeInTheDocument();
    const sources = await screen.findByRole('list', { name: 'Sources' });
    expect(within(sources).getByRole('button', { name: 'notes.txt · section 1' })).toBeVisible();
  });
});
