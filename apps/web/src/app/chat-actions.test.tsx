import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  callsTo,
  json,
  mockFetch,
  renderWithProviders,
  signIn,
  sse,
  type MockHandler,
} from '../test/utils';
import { AppRoutes } from './routes';

function setup(handler: MockHandler = () => undefined) {
  signIn('Ada');
  const fetchMock = mockFetch((req) => {
    const answer = handler(req);
    if (answer) return answer;
    if (req.path === 'alerts/latest') return json(200, { message: '', isVisible: false });
    if (req.path === 'chat/history')
      return json(200, { messages: [], current: 0, max: 20, started_at: null });
    if (req.path === 'jobs') return json(200, { jobs: [], next_cursor: null });
    if (req.path === 'my_files') return json(200, { files: [], used_bytes: 0, quota_bytes: 1 });
    return undefined;
  });
  const user = userEvent.setup();
  renderWithProviders(<AppRoutes />, { route: '/' });
  return { user, fetchMock };
}

const A11Y = {
  accessibility_analysis: {
    url: 'https://example.com/',
    score: 80,
    violations: [
      {
        id: 'image-alt',
        impact: 'critical',
        description: 'Images need alt text',
        help_url: 'https://x/1',
        count: 2,
        examples: ['img'],
      },
      {
        id: 'region',
        impact: 'moderate',
        description: 'Content in landmarks',
        help_url: 'https://x/2',
        count: 1,
        examples: ['div'],
      },
    ],
    passes: 30,
    incomplete: 1,
    ai_insights: 'Add **alt** text.',
  },
};

async function analyze(user: ReturnType<typeof userEvent.setup>, url: string, choice: string) {
  await user.click(await screen.findByRole('button', { name: 'Add URL' }));
  const field = await screen.findByRole('textbox', { name: 'Web page address' });
  // Focused by the form's effect, which may run after the field is first found.
  await waitFor(() => expect(field).toHaveFocus());
  await user.type(field, `${url}{Enter}`);
  const dialog = within(await screen.findByRole('dialog', { name: 'Select Action for URL' }));
  await user.click(dialog.getByRole('button', { name: choice }));
}

describe('URL analysis', () => {
  it('accessibility: Analyzing {url}..., then the insights and the violations by impact', async () => {
    const { user, fetchMock } = setup((req) =>
      req.path === 'accessibility-analysis' ? json(200, A11Y) : undefined,
    );
    await analyze(user, 'example.com', 'Accessibility Analysis');
    expect(await screen.findByText('Analyzing https://example.com/...')).toBeInTheDocument();
    expect(await screen.findByText('alt', { selector: 'strong' })).toBeInTheDocument();
    expect(screen.getByText('Critical (1)')).toBeInTheDocument();
    expect(screen.getByText('Moderate (1)')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'image-alt' })).toHaveAttribute('href', 'https://x/1');
    const [, init] = callsTo(fetchMock, 'accessibility-analysis')[0]!;
    // Signed in: the analysis goes with the token, so it is theirs after a reload (issue 39).
    expect(new Headers(init!.headers).get('Authorization')).toMatch(/^Bearer /);
    expect(String(init!.body)).toBe('url=https%3A%2F%2Fexample.com%2F');
    // Back to the text area after choosing.
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeInTheDocument();
  });

  it('SEO: empty insights say so; failures post the failure message', async () => {
    let n = 0;
    const { user } = setup((req) =>
      req.path === 'seo-analysis'
        ? ++n === 1
          ? json(200, {
              seo_analysis: {
                url: 'https://a.test/',
                score: 90,
                audits: [{ id: 'title', title: 'Has a title', passed: false, details: 'Missing' }],
                ai_insights: '',
              },
            })
          : json(500, { error: 'boom' })
        : undefined,
    );
    await analyze(user, 'https://a.test', 'SEO Analysis');
    expect(
      await screen.findByText('Analysis completed, but no detailed insights available.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Has a title: Missing')).toBeInTheDocument();
    await analyze(user, 'https://a.test', 'SEO Analysis');
    expect(
      await screen.findByText('Failed to perform analysis due to an error. boom'),
    ).toBeInTheDocument();
  });

  it('Return leaves URL mode; an invalid address is refused', async () => {
    const { user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Add URL' }));
    await user.type(
      await screen.findByRole('textbox', { name: 'Web page address' }),
      'not a url{Enter}',
    );
    expect(screen.getByText(/Enter a valid web address/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Return' }));
    expect(await screen.findByRole('textbox', { name: 'Message' })).toBeInTheDocument();
  });
});

const SITE = {
  site_analysis: {
    start_url: 'https://site.test/',
    pages: [
      { url: 'https://site.test/', accessibility_score: 71, seo_score: 83 },
      {
        url: 'https://site.test/gone',
        accessibility_score: null,
        seo_score: null,
        error: 'Timed out',
      },
    ],
    issues: [
      {
        audit: 'accessibility',
        id: 'image-alt',
        description: 'Images need alt text',
        pages_affected: 2,
        pages: ['https://site.test/', 'https://site.test/blog'],
      },
    ],
    disallowed: ['https://site.test/private'],
    ai_insights: 'Fix the **template**.',
  },
};

describe('whole-site analysis', () => {
  it('streams the job with a step, then the insights, scores per page and grouped issues', async () => {
    const { user, fetchMock } = setup((req) =>
      req.path === 'site-analysis'
        ? sse([
            { event: 'job', data: { id: 'job-1' } },
            {
              event: 'progress',
              data: { stage: 'crawling', done: 1, total: 10, queued_ahead: 0, eta_s: null },
            },
            { event: 'done', data: SITE },
          ])
        : undefined,
    );
    await analyze(user, 'site.test', 'Whole site');
    expect(
      await screen.findByText('Analyzing the whole site of https://site.test/...'),
    ).toBeInTheDocument();
    expect(await screen.findByText('template', { selector: 'strong' })).toBeInTheDocument();
    expect(
      screen.getByText('Site analysis completed for https://site.test/: 2 page(s) audited.'),
    ).toBeInTheDocument();
    const scores = within(screen.getByRole('list', { name: 'Scores per page' }));
    expect(
      scores.getByText('https://site.test/: accessibility 71/100, SEO 83/100'),
    ).toBeInTheDocument();
    expect(scores.getByText(/gone: accessibility not audited.*\(Timed out\)/)).toBeInTheDocument();
    const issues = within(screen.getByRole('list', { name: 'Issues across pages' }));
    expect(
      issues.getByText('Accessibility · image-alt: Images need alt text on 2 of 2 pages'),
    ).toBeInTheDocument();
    const [, init] = callsTo(fetchMock, 'site-analysis')[0]!;
    const headers = new Headers(init!.headers);
    expect(headers.get('Accept')).toBe('text/event-stream');
    expect(headers.get('Authorization')).toBe('Bearer access-1');
    expect(String(init!.body)).toBe('url=https%3A%2F%2Fsite.test%2F');
  });
});

describe('chat upload and question mode', () => {
  it('rejects an unsupported file with the spec message', async () => {
    const { user } = setup();
    const input = await screen.findByTestId('chat-file-input');
    const upload = userEvent.setup({ applyAccept: false });
    await upload.upload(input as HTMLInputElement, new File(['x'], 'a.exe'));
    expect(
      await screen.findByText('Unsupported file type. Please select an allowed file.'),
    ).toBeInTheDocument();
    expect((input as HTMLInputElement).value).toBe('');
    void user;
  });

  it('Ask Questions: question mode, each text goes to askQuestions with the file until its chip is closed', async () => {
    const { user, fetchMock } = setup((req) => {
      if (req.path === 'askQuestions') return json(200, { response: 'It is about cats.' });
      if (req.path === 'chat') return json(200, { response: 'Normal chat', current: 1, max: 20 });
      return undefined;
    });
    await user.upload(
      await screen.findByTestId('chat-file-input'),
      new File(['hello'], 'cats.txt'),
    );
    const dialog = within(await screen.findByRole('dialog', { name: 'Select Action for file' }));
    await user.click(dialog.getByRole('button', { name: 'Ask Questions' }));
    expect(
      await screen.findByText('Go ahead and ask questions about cats.txt...'),
    ).toBeInTheDocument();
    const box = screen.getByRole('textbox', { name: 'Message' });
    await user.type(box, 'What is it about?{Enter}');
    expect(await screen.findByText('It is about cats.')).toBeInTheDocument();
    const body = callsTo(fetchMock, 'askQuestions')[0]![1]!.body as FormData;
    expect(body.get('text')).toBe('What is it about?');
    expect((body.get('file') as File).name).toBe('cats.txt');
    // The mode stays, shown by its chip, for the next question too.
    const close = screen.getByRole('button', { name: 'Stop asking about cats.txt' });
    expect(close.closest('[role="status"]')).toHaveTextContent('Questions about cats.txt');
    await user.type(box, 'And who wrote it?{Enter}');
    await waitFor(() => expect(callsTo(fetchMock, 'askQuestions')).toHaveLength(2));
    expect(await screen.findAllByText('It is about cats.')).toHaveLength(2);
    await user.click(close);
    expect(screen.queryByRole('button', { name: 'Stop asking about cats.txt' })).toBeNull();
    expect(box).toHaveAttribute('placeholder', 'Ask anything');
    await user.type(box, 'And now?{Enter}');
    expect(await screen.findByText('Normal chat')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'askQuestions')).toHaveLength(2);
  });

  it("with no model, the picked file's actions that need one are disabled with the reason", async () => {
    const { user } = setup((req) =>
      req.path === 'ai/status'
        ? json(200, {
            state: 'unavailable',
            progress: null,
            name: 'model',
            reason: null,
            queued: 0,
            last_ok_at: null,
          })
        : undefined,
    );
    await user.upload(await screen.findByTestId('chat-file-input'), new File(['x'], 'a.txt'));
    const dialog = within(await screen.findByRole('dialog', { name: 'Select Action for file' }));
    for (const action of ['Summarize', 'Ask Questions', 'Translate']) {
      const item = await dialog.findByRole('button', { name: new RegExp(`^${action}`) });
      expect(item).toHaveAttribute('aria-disabled', 'true');
      expect(item).toHaveTextContent('Needs a language model; none is available now.');
    }
    expect(dialog.getByRole('button', { name: 'Proofread' })).not.toHaveAttribute(
      'aria-disabled',
      'true',
    );
  });

  it('askQuestions failures are posted, a missing response field is reported', async () => {
    const { user } = setup((req) =>
      req.path === 'askQuestions' ? json(200, { answer: 'wrong field' }) : undefined,
    );
    await user.upload(await screen.findByTestId('chat-file-input'), new File(['x'], 'a.pdf'));
    await user.click(await screen.findByRole('button', { name: 'Ask Questions' }));
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Q{Enter}');
    expect(
      await screen.findByText('Error in askQuestions: Unexpected response structure from backend.'),
    ).toBeInTheDocument();
    expect(screen.queryByText('Loading...')).toBeNull();
  });

  it("an empty askQuestions answer posts 'No detailed response available.'", async () => {
    const { user } = setup((req) =>
      req.path === 'askQuestions' ? json(200, { response: '  ' }) : undefined,
    );
    await user.upload(await screen.findByTestId('chat-file-input'), new File(['x'], 'a.pdf'));
    await user.click(await screen.findByRole('button', { name: 'Ask Questions' }));
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Q{Enter}');
    expect(await screen.findByText('No detailed response available.')).toBeInTheDocument();
    expect(screen.queryByText('Loading...')).toBeNull();
  });

  it('Summarize a picked file sends it as multipart `file`', async () => {
    const { user, fetchMock } = setup((req) =>
      req.path === 'summarize' ? json(200, { summary: '' }) : undefined,
    );
    await user.upload(await screen.findByTestId('chat-file-input'), new File(['x'], 'a.docx'));
    await user.click(await screen.findByRole('button', { name: 'Summarize' }));
    expect(await screen.findByText('Starting Summarize for a.docx...')).toBeInTheDocument();
    expect(await screen.findByText('No response from AI')).toBeInTheDocument();
    expect((callsTo(fetchMock, 'summarize')[0]![1]!.body as FormData).get('file')).toBeInstanceOf(
      File,
    );
  });
});

describe('text translation', () => {
  it("'Translating...' is replaced by the translation, or removed on failure", async () => {
    let n = 0;
    const { user, fetchMock } = setup((req) =>
      req.path === 'translate'
        ? ++n === 1
          ? json(200, { translation: 'Hola' })
          : json(500, { error: 'down' })
        : undefined,
    );
    await user.type(await screen.findByRole('textbox', { name: 'Message' }), 'Hello');
    for (const expected of ['Hola', null]) {
      await user.click(screen.getByRole('button', { name: 'Translate text' }));
      const dialog = within(await screen.findByRole('dialog', { name: 'Translate Text' }));
      expect(dialog.getByRole('textbox', { name: /Text to translate/ })).toHaveValue('Hello');
      await user.click(dialog.getByRole('combobox', { name: /Target language/ }));
      await user.click(screen.getByRole('option', { name: 'Spanish' }));
      await user.click(dialog.getByRole('button', { name: 'Translate' }));
      if (expected) expect(await screen.findByText(expected)).toBeInTheDocument();
      await waitFor(() => expect(screen.queryByText('Translating...')).toBeNull());
    }
    const body = callsTo(fetchMock, 'translate')[0]![1]!.body as FormData;
    expect([body.get('text'), body.get('target_language')]).toEqual(['Hello', 'Spanish']);
    expect(screen.getAllByText('Hola')).toHaveLength(1);
  });
});
