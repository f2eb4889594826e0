import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Job } from '@inkwell/contract';
import { AppRoutes } from '../../app/routes';
import { callsTo, jobsApi, json, mockFetch, renderWithProviders, signIn } from '../../test/utils';

/**
 * Issue 26: after a reload and on another device, the conversation shows the user's jobs asked
 * in it (GET /api/jobs since the history's `started_at`), each where it was asked, and follows
 * those still running with their progress and Cancel.
 */
const at = (minute: number) => new Date(Date.UTC(2026, 10, 25, 9, minute)).toISOString();

function job(patch: Partial<Job> & Pick<Job, 'id' | 'kind' | 'state'>): Job {
  return {
    about: {},
    progress: null,
    result: null,
    error: null,
    created_at: at(0),
    finished_at: null,
    ...patch,
  };
}

/** A summary of notes.txt that ended between the two chat exchanges. */
const summaryDone = () =>
  job({
    id: 'sum1',
    kind: 'summarize',
    state: 'done',
    about: { file_name: 'notes.txt' },
    result: { summary: 'A short summary of the notes.' },
    created_at: at(20),
  });

function setup(
  jobs: Job[],
  events: Record<string, Response> = {},
  /** 'absent': a server older than the field (a rolling upgrade) does not send it. */
  startedAt: string | null | 'absent' = null,
  /** Jobs per page of GET /api/jobs (the server's default is 50). */
  pageSize = 50,
) {
  signIn('Ada');
  const fetchMock = mockFetch((req) => {
    if (req.path === 'alerts/latest') return json(200, { message: '', isVisible: false });
    if (req.path === 'my_files') return json(200, { files: [], used_bytes: 0, quota_bytes: 1 });
    if (req.path === 'chat/history') {
      return json(200, {
        messages: [
          { id: 1, role: 'user', text: 'First chat question', created_at: at(10) },
          { id: 2, role: 'assistant', text: 'First chat answer', created_at: at(11) },
          { id: 3, role: 'user', text: 'Later chat question', created_at: at(30) },
          { id: 4, role: 'assistant', text: 'Later chat answer', created_at: at(31) },
        ],
        current: 2,
        max: 20,
        ...(startedAt === 'absent' ? {} : { started_at: startedAt }),
      });
    }
    const listed = jobsApi(req, jobs, pageSize);
    if (listed) return listed;
    const followed = /^jobs\/([^/]+)\/events$/.exec(req.path);
    if (followed) return events[followed[1]!];
    if (req.method === 'DELETE' && req.path.startsWith('jobs/')) return json(200, {});
    return undefined;
  });
  const user = userEvent.setup();
  renderWithProviders(<AppRoutes />, { route: '/' });
  return { fetchMock, user };
}

/** The conversation's messages once all `count` are shown (the list measures them hidden first). */
const articleTexts = async (count: number) => {
  const log = await screen.findByRole('log', { name: 'Conversation' });
  let texts: string[] = [];
  await waitFor(() => {
    texts = within(log)
      .getAllByRole('article')
      .map((a) => a.textContent ?? '');
    expect(texts).toHaveLength(count);
  });
  return texts;
};

describe('jobs in the restored conversation', () => {
  it('shows typed translations again: the translation in its place, or why it failed', async () => {
    setup([
      job({
        id: 'tt2',
        kind: 'translate',
        state: 'failed',
        about: { target_language: 'German', text: 'Good night' },
        error: { error: 'The model timed out', status: 504 },
        created_at: at(33),
      }),
      job({
        id: 'tt1',
        kind: 'translate',
        state: 'done',
        about: { target_language: 'French', text: 'Good morning' },
        result: { translation: 'Bonjour' },
        created_at: at(20),
      }),
    ]);
    const order = [
      'First chat question',
      'First chat answer',
      'Bonjour',
      'Later chat question',
      'Later chat answer',
      'Translation failed: The model timed out.',
    ];
    const texts = await articleTexts(order.length);
    order.forEach((text, i) => expect(texts[i]).toContain(text));
    expect(screen.queryByText('Translating...')).toBeNull();
  });

  it('shows ended jobs where they were asked, in time order with the chat, and not those of an earlier topic', async () => {
    const { fetchMock } = setup(
      [
        // Newest first, as GET /api/jobs answers.
        job({
          id: 'ask1',
          kind: 'ask',
          state: 'done',
          about: { file_name: 'notes.txt', question: 'Who wrote the notes?' },
          result: { response: 'The keeper wrote them.' },
          created_at: at(40),
        }),
        job({
          id: 'tr1',
          kind: 'translate',
          state: 'failed',
          about: { file_name: 'notes.txt', target_language: 'Spanish' },
          error: { error: 'The model timed out', status: 504 },
          created_at: at(35),
        }),
        job({
          id: 'seo1',
          kind: 'seo',
          state: 'cancelled',
          about: { url: 'http://127.0.0.1:9/' },
          created_at: at(32),
        }),
        summaryDone(),
        job({
          id: 'old',
          kind: 'summarize',
          state: 'done',
          about: { file_name: 'before-new-topic.txt' },
          result: { summary: 'From the earlier topic.' },
          created_at: at(2),
        }),
      ],
      {},
      at(5),
    );
    await screen.findByText('The keeper wrote them.');
    const order = [
      'First chat question',
      'First chat answer',
      'Starting Summarize for notes.txt...',
      'Summarize completed for notes.txt.',
      'A short summary of the notes.',
      'Later chat question',
      'Later chat answer',
      'Analyzing http://127.0.0.1:9/...',
      'Cancelled: analysis of http://127.0.0.1:9/.',
      'Translating notes.txt to Spanish...',
      'Translation failed: The model timed out.',
      'Who wrote the notes?',
      'The keeper wrote them.',
    ];
    const texts = await articleTexts(order.length);
    order.forEach((text, i) => expect(texts[i]).toContain(text));
    expect(screen.queryByText(/before-new-topic/)).toBeNull();
    // Nothing ran again or was followed: the results of the conversation's ended jobs were read
    // one by one (the list has none), and nothing of the earlier topic's.
    const asked = callsTo(fetchMock, 'jobs/').map(([input, init]) => [
      new URL(String(input), 'http://localhost').pathname.replace(/^.*\/api\//, ''),
      init?.method ?? 'GET',
    ]);
    expect(asked.sort()).toEqual([
      ['jobs/ask1', 'GET'],
      ['jobs/sum1', 'GET'],
    ]);
  });

  it('reads page after page back to the conversation start, and no further', async () => {
    const summary = (n: number, minute: number) =>
      job({
        id: `s${n}`,
        kind: 'summarize',
        state: 'done',
        about: { file_name: `f${n}.txt` },
        result: { summary: `Summary number ${n}.` },
        created_at: at(minute),
      });
    // Newest first, in pages of two: page 3 ends with a job from before the conversation.
    const jobs = [
      summary(6, 45),
      summary(5, 44),
      summary(4, 43),
      summary(3, 42),
      summary(2, 41),
      summary(0, 4),
      summary(-1, 3),
      summary(-2, 2),
    ];
    const { fetchMock } = setup(jobs, {}, at(5), 2);
    for (let n = 2; n <= 6; n++)
      expect(await screen.findByText(`Summary number ${n}.`)).toBeInTheDocument();
    expect(screen.queryByText('Summary number 0.')).toBeNull();
    const pages = callsTo(fetchMock, 'jobs').filter(([input]) => !String(input).includes('jobs/'));
    // Page 3 ends with a job from before the conversation: page 4 is not asked.
    expect(pages).toHaveLength(3);
  });

  it('shows the conversation and its jobs from a server that does not say when it began', async () => {
    setup([summaryDone()], {}, 'absent');
    const texts = await articleTexts(7);
    expect(texts[0]).toContain('First chat question');
    expect(texts[4]).toContain('A short summary of the notes.');
    expect(texts[6]).toContain('Later chat answer');
  });

  it('follows a job still running in its place, with its progress, to its result', async () => {
    const progress = { stage: 'summarizing', done: 1, total: 3, queued_ahead: 0, eta_s: 12 };
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        const send = (event: string, data: unknown) =>
          controller.enqueue(
            new TextEncoder().encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`),
          );
        send('job', { id: 'run1' });
        send('progress', { ...progress, done: 2 });
        await finished;
        send('done', { summary: 'Summary that arrived after the reload.' });
        controller.close();
      },
    });
    const { fetchMock } = setup(
      [
        job({
          id: 'run1',
          kind: 'summarize',
          state: 'running',
          about: { file_name: 'long.pdf' },
          progress,
          created_at: at(20),
        }),
      ],
      {
        run1: new Response(stream, { headers: { 'Content-Type': 'text/event-stream' } }),
      },
    );
    const bar = await screen.findByRole('progressbar', {
      name: 'Progress of Starting Summarize for long.pdf...',
    });
    // In its place: before the chat asked after it.
    const texts = await articleTexts(5);
    expect(texts[2]).toContain('Starting Summarize for long.pdf...');
    expect(texts[3]).toContain('Later chat question');
    await waitFor(() =>
      expect(bar).toHaveAttribute('aria-valuenow', String(Math.round((2 / 3) * 100))),
    );
    expect(callsTo(fetchMock, 'jobs/run1/events')).toHaveLength(1);
    finish();
    expect(await screen.findByText('Summary that arrived after the reload.')).toBeInTheDocument();
    expect(screen.getByText('Summarize completed for long.pdf.')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('Cancel on a followed job cancels it on the server', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('event: job\ndata: {"id":"q1"}\n\n'));
      },
    });
    const { fetchMock, user } = setup(
      [
        job({
          id: 'q1',
          kind: 'ask',
          state: 'queued',
          about: { file_name: 'notes.txt', question: 'Still waiting?' },
          created_at: at(40),
        }),
      ],
      { q1: new Response(stream, { headers: { 'Content-Type': 'text/event-stream' } }) },
    );
    await screen.findByText('Still waiting?');
    await user.click(await screen.findByRole('button', { name: /Cancel/ }));
    expect(await screen.findByText('Cancelled: question about notes.txt.')).toBeInTheDocument();
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(
          ([input, init]) => String(input).endsWith('/api/jobs/q1') && init?.method === 'DELETE',
        ),
      ).toBe(true),
    );
  });
});
