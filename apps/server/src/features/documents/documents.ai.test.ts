import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MODEL_UNAVAILABLE_MESSAGE } from '@inkwell/contract';
import {
  echoReply,
  startOpenAITestServer,
  type OpenAITestServer,
} from '../../../test/openai-test-server';
import {
  registerUser,
  startTestServer,
  testDialects,
  type TestServer,
} from '../../../test/test-app';
import { uploadOk } from '../files/testing';
import { fixture, postForm, REF, sentTexts, TYPES } from './test-helpers';

/**
 * Summarize, askQuestions and translate over real HTTP against a real OpenAI-compatible server:
 * for every file type the document's text reaches the model and the answer reaches the client.
 */
describe.each(testDialects())('document AI actions (%s)', (dialect) => {
  let model: OpenAITestServer;
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    model = await startOpenAITestServer();
    server = await startTestServer({ dialect, env: { AI_BASE_URL: model.url } });
    token = (await registerUser(server)).token;
  });
  afterAll(async () => {
    await server?.close();
    await model?.close();
  });
  beforeEach(() => {
    model.requests.length = 0;
    model.setReply(echoReply);
    model.setFailure({});
  });

  describe.each(TYPES)('%s', (type) => {
    const marker = `marker${type}zz`;
    const file = async () => ({ name: `report.${type}`, bytes: await fixture(type, marker) });

    it('summarize: the text reaches the model and the reply comes back as summary', async () => {
      model.setReply(() => `Summary of the ${type}.`);
      const res = await postForm(server, '/api/summarize', token, { file: await file() });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ summary: `Summary of the ${type}.` });
      expect(sentTexts(model.requests).join('\n')).toContain(marker);
      expect(model.requests.every((r) => (r.max_tokens ?? 0) > 0)).toBe(true);
    });

    it('askQuestions: the best passage goes with its reference; the answer cites it', async () => {
      model.setReply(() => 'It grew by twelve percent.');
      const res = await postForm(server, '/api/askQuestions', token, {
        file: await file(),
        fields: { text: `How much did the ${marker} budget grow?` },
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { response: string };
      expect(body.response).toMatch(/^It grew by twelve percent\./);
      expect(body.response).toMatch(REF[type]);
      const sent = sentTexts(model.requests)[0]!;
      expect(sent).toContain(`The ${marker} budget grew`);
      expect(sent).toMatch(REF[type]);
    });

    it('translate (file): the text reaches the model and the reply is the translation', async () => {
      model.setReply(() => 'Traduction.');
      const res = await postForm(server, '/api/translate', token, {
        file: await file(),
        fields: { target_language: 'french' },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ translation: 'Traduction.' });
      const sent = sentTexts(model.requests).join('\n');
      expect(sent).toContain(marker);
      expect(sent).toContain('into French');
    });
  });

  it('works on a stored file by file_id, and another user gets 404 with no model call', async () => {
    const stored = await uploadOk(server, token, 'notes.docx', await fixture('docx', 'storedzz'));
    model.setReply(() => 'Stored summary.');
    const own = await postForm(server, '/api/summarize', token, {
      fields: { file_id: String(stored.id) },
    });
    expect(own.status).toBe(200);
    expect(await own.json()).toEqual({ summary: 'Stored summary.' });
    expect(sentTexts(model.requests).join('\n')).toContain('storedzz');

    const tr = await postForm(server, '/api/translate_stored_file', token, {
      fields: { file_id: String(stored.id), target_language: 'German' },
    });
    expect(tr.status).toBe(200);
    expect(((await tr.json()) as { translation: string }).translation).toBe('Stored summary.');

    model.requests.length = 0;
    const other = await registerUser(server);
    for (const path of ['/api/summarize', '/api/translate_stored_file']) {
      const res = await postForm(server, path, other.token, {
        fields: { file_id: String(stored.id), target_language: 'German' },
      });
      expect(res.status).toBe(404);
    }
    expect(model.requests).toHaveLength(0);
  });

  it('translates typed text (url-encoded form) keeping paragraphs; source language optional', async () => {
    model.setReply((messages) => messages.at(-1)!.content.toUpperCase());
    const res = await server.request('/api/translate', {
      method: 'POST',
      token,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        text: 'hello world\n\nsecond paragraph',
        target_language: 'SPANISH',
        source_language: 'English',
      }).toString(),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ translation: 'HELLO WORLD\n\nSECOND PARAGRAPH' });
    expect(model.requests[0]!.messages[0]!.content).toContain('from English into Spanish');
  });

  it("keeps a typed translation as the person's job: listed after a reload, on another device", async () => {
    model.setReply((messages) => `[fr] ${messages.at(-1)!.content}`);
    const person = await registerUser(server);
    const res = await server.request('/api/translate', {
      method: 'POST',
      token: person.token,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ text: 'Good morning', target_language: 'French' }).toString(),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ translation: '[fr] Good morning' });
    const id = res.headers.get('x-job-id');
    expect(id).toBeTruthy();
    // Another device: a new sign-in of the same account lists it with what it translated.
    const login = await server.request('/api/login', {
      method: 'POST',
      json: { email: person.email, password: person.password },
    });
    const other = ((await login.json()) as { access_token: string }).access_token;
    const list = (await (await server.request('/api/jobs', { token: other })).json()) as {
      jobs: { id: string; kind: string; state: string; about: object }[];
    };
    expect(list.jobs).toContainEqual(
      expect.objectContaining({
        id,
        kind: 'translate',
        state: 'done',
        about: { target_language: 'French', text: 'Good morning' },
      }),
    );
    const job = (await (await server.request(`/api/jobs/${id}`, { token: other })).json()) as {
      result: unknown;
    };
    expect(job.result).toEqual({ translation: '[fr] Good morning' });
    // Nobody else's.
    expect((await server.request(`/api/jobs/${id}`, { token })).status).toBe(404);
  });

  it('refuses bad input with 400 and a clear message, without calling the model', async () => {
    const bad: [string, Parameters<typeof postForm>[3], RegExp][] = [
      [
        '/api/askQuestions',
        { file: { name: 'a.txt', bytes: 'Some text.' }, fields: { text: '  ' } },
        /question must not be empty/,
      ],
      [
        '/api/askQuestions',
        { file: { name: 'a.txt', bytes: 'Some text.' } },
        /question\) is required/,
      ],
      [
        '/api/translate',
        { fields: { text: 'hello', target_language: 'Klingon' } },
        /Unsupported language "Klingon"/,
      ],
      ['/api/translate', { fields: { text: 'hello' } }, /target_language is required/],
      [
        '/api/translate',
        { file: { name: 'a.txt', bytes: 'hello' }, fields: { target_language: 'Elvish' } },
        /Unsupported language/,
      ],
      [
        '/api/translate_stored_file',
        { fields: { file_id: '1', target_language: 'Latin' } },
        /Unsupported language/,
      ],
      ['/api/summarize', { file: { name: 'empty.txt', bytes: '   \n  ' } }, /no text we can read/],
      ['/api/summarize', {}, /No file uploaded/],
      ['/api/summarize', { fields: { file_id: 'abc' } }, /file_id/],
    ];
    for (const [path, input, message] of bad) {
      const res = await postForm(server, path, token, input);
      expect(res.status, `${path} ${JSON.stringify(input.fields)}`).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(message);
    }
    const exe = await postForm(server, '/api/summarize', token, {
      file: { name: 'a.exe', bytes: 'MZ' },
    });
    expect(exe.status).toBe(415);
    expect(model.requests).toHaveLength(0);
  });

  it('requires authentication on every action', async () => {
    for (const path of [
      '/api/summarize',
      '/api/askQuestions',
      '/api/translate',
      '/api/translate_stored_file',
      '/api/proofread',
      '/api/bulk-sentiment-analysis',
      '/api/download-response',
    ]) {
      const res = await server.request(path, {
        method: 'POST',
        json: { text: 'x', format: 'txt' },
      });
      expect(res.status, path).toBe(401);
    }
  });

  it('answers 503 with the spec wording when the AI server cannot be reached', async () => {
    model.setFailure({ status: 404 });
    const res = await postForm(server, '/api/summarize', token, {
      file: { name: 'a.txt', bytes: 'Some text to summarize.' },
    });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: string }).error).toBe(MODEL_UNAVAILABLE_MESSAGE);
  });
});
