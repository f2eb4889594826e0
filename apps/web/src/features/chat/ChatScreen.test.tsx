import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { MODEL_UNAVAILABLE_MESSAGE } from '@inkwell/contract';
import { AppRoutes } from '../../app/routes';
import {
  callsTo,
  fakeSpeechSynthesis,
  json,
  mockFetch,
  renderWithProviders,
  signIn,
  sse,
  type MockHandler,
} from '../../test/utils';

const history = (messages: unknown[] = []) =>
  json(200, { messages, current: 0, max: 20, started_at: null });

function setup(handler: MockHandler = () => undefined, { signedIn = true } = {}) {
  if (signedIn) signIn('Ada');
  const fetchMock = mockFetch((req) => {
    const answer = handler(req);
    if (answer) return answer;
    if (req.path === 'alerts/latest') return json(200, { message: '', isVisible: false });
    if (req.path === 'chat/history') return history();
    if (req.path === 'my_files') return json(200, { files: [], used_bytes: 0, quota_bytes: 1 });
    return undefined;
  });
  const user = userEvent.setup();
  renderWithProviders(<AppRoutes />, { route: '/' });
  return { user, fetchMock };
}

const chatCalls = (f: ReturnType<typeof mockFetch>) =>
  f.mock.calls.filter(([input]) => String(input).endsWith('/api/chat'));
const messageBox = () => screen.findByRole('textbox', { name: 'Message' });
const log = () => within(screen.getByRole('log', { name: 'Conversation' }));

describe('chat', () => {
  it('streams a reply into the Loading... placeholder and shows the counter', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { user, fetchMock } = setup((req) => {
      if (req.path !== 'chat') return undefined;
      return gate.then(() =>
        sse([
          { event: 'token', data: { text: 'Hello ' } },
          { event: 'token', data: { text: '**there**' } },
          { event: 'done', data: { response: 'Hello **there**', current: 3, max: 20 } },
        ]),
      );
    });
    await user.type(await messageBox(), 'Hi there{Enter}');
    expect(await screen.findByText('Hi there')).toBeInTheDocument();
    expect(log().getByText('Loading...')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('');
    release();
    expect(await screen.findByText('there', { selector: 'strong' })).toBeInTheDocument();
    expect(screen.queryByText('Loading...')).toBeNull();
    expect(screen.getByText('3 of 20')).toBeInTheDocument();
    const [, init] = chatCalls(fetchMock)[0]!;
    expect((init!.headers as Record<string, string>).Accept).toBe('text/event-stream');
    expect((init!.body as FormData).get('text')).toBe('Hi there');
    expect(init!.credentials).toBe('include');
  });

  it('keeps the conversation busy while a reply streams, so screen readers read it whole', async () => {
    let finish!: () => void;
    const { user } = setup((req) => {
      if (req.path !== 'chat') return undefined;
      const encoder = new TextEncoder();
      const event = (name: string, data: unknown) =>
        encoder.encode(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(event('token', { text: 'Half a ' }));
          finish = () => {
            controller.enqueue(event('done', { response: 'Half a reply', current: 1, max: 20 }));
            controller.close();
          };
        },
      });
      return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
    });
    await user.type(await messageBox(), 'Go{Enter}');
    const conversation = screen.getByRole('log', { name: 'Conversation' });
    const reply = await log().findByText('Half a');
    expect(conversation).toHaveAttribute('aria-busy', 'true');
    expect(reply.closest('article')).toHaveAttribute('aria-busy', 'true');
    act(() => finish());
    expect(await log().findByText('1 of 20')).toBeInTheDocument();
    expect(conversation).toHaveAttribute('aria-busy', 'false');
    expect(log().getByText('Half a reply').closest('article')).not.toHaveAttribute('aria-busy');
  });

  it('a reply failing before its first token gives the server’s reason; one failing mid-stream stays, stopped', async () => {
    let n = 0;
    const { user } = setup((req) =>
      req.path === 'chat'
        ? sse([
            ...(++n === 1 ? [] : [{ event: 'token', data: { text: 'Par' } }]),
            { event: 'error', data: { error: 'AI timed out', status: 504 } },
          ])
        : undefined,
    );
    await user.type(await messageBox(), 'Question{Enter}');
    expect(await screen.findByText('Question')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Loading...')).toBeNull());
    expect(screen.queryByText('Stopped.')).toBeNull();
    expect(await log().findByText('AI timed out')).toBeInTheDocument();
    // The server keeps a reply cut short after its first token (issue 26): so does the screen.
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Again{Enter}');
    expect(await screen.findByText('Par')).toBeInTheDocument();
    expect(screen.getByText('Stopped.')).toBeInTheDocument();
    expect(log().getAllByText('AI timed out')).toHaveLength(1);
  });

  it('says at once in the chat that an unavailable assistant cannot answer', async () => {
    const { user } = setup((req) =>
      req.path === 'chat' ? json(503, { error: MODEL_UNAVAILABLE_MESSAGE }) : undefined,
    );
    await user.type(await messageBox(), 'Anyone there?{Enter}');
    expect(await log().findByText(MODEL_UNAVAILABLE_MESSAGE)).toBeInTheDocument();
    expect(screen.queryByText('Loading...')).toBeNull();
  });

  it('accepts a plain JSON answer too and removes the placeholder on an HTTP error', async () => {
    let n = 0;
    const { user } = setup((req) =>
      req.path === 'chat'
        ? ++n === 1
          ? json(200, { response: 'Plain reply', current: 1, max: 20 })
          : json(429, { error: 'Daily limit reached' })
        : undefined,
    );
    await user.type(await messageBox(), 'One{Enter}');
    expect(await screen.findByText('Plain reply')).toBeInTheDocument();
    expect(screen.getByText('1 of 20')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Two{Enter}');
    expect(await screen.findByText('Two')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Loading...')).toBeNull());
  });

  it('Shift+Enter inserts a new line; send is disabled for blank text; n/1000 counts', async () => {
    const { user, fetchMock } = setup();
    const box = await messageBox();
    const send = screen.getByRole('button', { name: 'Send' });
    expect(send).toBeDisabled();
    await user.type(box, '   ');
    expect(send).toBeDisabled();
    await user.type(box, '{Enter}');
    expect(chatCalls(fetchMock)).toHaveLength(0);
    await user.clear(box);
    await user.type(box, 'a{Shift>}{Enter}{/Shift}b');
    expect(box).toHaveValue('a\nb');
    expect(screen.getByText('3/1000')).toBeInTheDocument();
    expect(send).toBeEnabled();
  });

  it('caps the text at 1000 characters', async () => {
    const { user } = setup();
    const box = await messageBox();
    await user.click(box);
    await user.paste('x'.repeat(1005));
    expect(box).toHaveValue('x'.repeat(1000));
    expect(screen.getByText('1000/1000')).toBeInTheDocument();
  });

  it('signed out: the input is disabled with an info alert', async () => {
    setup(undefined, { signedIn: false });
    expect(await messageBox()).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Upload file' })).toBeDisabled();
    expect(screen.getByText(/to use the chat/)).toBeInTheDocument();
  });

  it('restores the stored conversation when signed in', async () => {
    setup((req) =>
      req.path === 'chat/history'
        ? history([
            { id: 1, role: 'user', text: 'Earlier question', created_at: '' },
            { id: 2, role: 'assistant', text: 'Earlier answer', created_at: '' },
          ])
        : undefined,
    );
    expect(await screen.findByText('Earlier question')).toBeInTheDocument();
    expect(await screen.findByText('Earlier answer')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Hello, Ada!' })).toBeNull();
  });

  it('restored history: the current prompt counter shows on the newest reply only', async () => {
    setup((req) =>
      req.path === 'chat/history'
        ? json(200, {
            messages: [
              { id: 1, role: 'user', text: 'First question', created_at: '' },
              { id: 2, role: 'assistant', text: 'First answer', created_at: '' },
              { id: 3, role: 'user', text: 'Second question', created_at: '' },
              { id: 4, role: 'assistant', text: 'Second answer', created_at: '' },
            ],
            current: 5,
            max: 20,
            started_at: null,
          })
        : undefined,
    );
    const newest = (await screen.findByText('Second answer')).closest('article')!;
    const older = screen.getByText('First answer').closest('article')!;
    expect(within(newest).getByText('5 of 20')).toBeInTheDocument();
    expect(within(older).queryByText(/ of 20$/)).toBeNull();
    expect(screen.getAllByText(/^\d+ of 20$/)).toHaveLength(1);
  });

  it('New Topic clears the server histories and the screen', async () => {
    const { user, fetchMock } = setup((req) =>
      req.path === 'chat/history'
        ? history([{ id: 1, role: 'user', text: 'Old', created_at: '' }])
        : req.path === 'clearAllHistories'
          ? json(200, { message: 'ok' })
          : undefined,
    );
    expect(await screen.findByText('Old')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    await user.click(screen.getByRole('button', { name: 'New Topic' }));
    expect(await screen.findByRole('heading', { name: 'Hello, Ada!' })).toBeInTheDocument();
    await waitFor(() => expect(callsTo(fetchMock, 'clearAllHistories')).toHaveLength(1));
    expect(callsTo(fetchMock, 'clearAllHistories')[0]![1]!.method).toBe('POST');
  });

  it('copies a reply (check icon for 2 s) and reads it aloud', async () => {
    const { user } = setup((req) =>
      req.path === 'chat/history'
        ? history([{ id: 2, role: 'assistant', text: 'Answer text', created_at: '' }])
        : undefined,
    );
    await screen.findByText('Answer text');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(screen.getByRole('button', { name: 'Copy message' }));
    expect(await navigator.clipboard.readText()).toBe('Answer text');
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(2100));
    expect(await screen.findByRole('button', { name: 'Copy message' })).toBeInTheDocument();
    vi.useRealTimers();

    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    await user.click(screen.getByRole('button', { name: 'Read aloud' }));
    expect(alert).toHaveBeenCalledWith("Sorry, your browser doesn't support text to speech!");

    const synth = fakeSpeechSynthesis();
    const button = screen.getByRole('button', { name: 'Read aloud' });
    await user.click(button);
    expect(synth.speak).toHaveBeenCalledWith(expect.objectContaining({ text: 'Answer text' }));
    expect(button).toHaveAttribute('aria-pressed', 'true');
    await user.click(button);
    expect(button).toHaveAttribute('aria-pressed', 'false');
  });

  it('voice input: alerts when unsupported, otherwise fills the text (en-US)', async () => {
    const { user } = setup();
    await messageBox();
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    await user.click(screen.getByRole('button', { name: 'Voice input' }));
    expect(alert).toHaveBeenCalledWith("This browser doesn't support speech recognition.");

    let instance: { lang: string; onresult: (e: unknown) => void; onend: () => void } | undefined;
    vi.stubGlobal(
      'SpeechRecognition',
      class {
        lang = '';
        onresult = null;
        onend = null;
        constructor() {
          instance = this as never;
        }
        start() {}
        stop() {}
      },
    );
    await user.click(screen.getByRole('button', { name: 'Voice input' }));
    expect(instance!.lang).toBe('en-US');
    act(() => {
      instance!.onresult({ results: [[{ transcript: 'spoken words' }]] });
      instance!.onend();
    });
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('spoken words');
    expect(screen.getByRole('button', { name: 'Voice input' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
  });
});
