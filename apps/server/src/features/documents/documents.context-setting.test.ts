import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAITestServer, type OpenAITestServer } from '../../../test/openai-test-server';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-app';
import { loadConfig } from '../../config';
import { estimateTokens } from '../ai';
import { postForm } from './test-helpers';

/**
 * AI_CONTEXT_TOKENS: the openai provider's window, which every action budgets with. Set small
 * here, so a document that fits 8,192 tokens must be cut to fit it.
 */
const CONTEXT = 1024;
const text = Array.from(
  { length: 120 },
  (_, i) => `Entry ${i + 1}: the keeper logged the lamp, the wind and the tide at dawn.`,
).join('\n\n');

describe('AI_CONTEXT_TOKENS', () => {
  let model: OpenAITestServer;
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    model = await startOpenAITestServer();
    server = await startTestServer({
      env: { AI_BASE_URL: model.url, AI_CONTEXT_TOKENS: String(CONTEXT) },
    });
    token = (await registerUser(server)).token;
  });
  afterAll(async () => {
    await server?.close();
    await model?.close();
  });

  it('defaults to 8,192 and is the model’s context when set', () => {
    const base = { DATA_DIR: '/tmp/inkwell-cfg-test', JWT_SECRET: 'x'.repeat(64) };
    expect(loadConfig(base).AI_CONTEXT_TOKENS).toBe(8192);
    expect(() => loadConfig({ ...base, AI_CONTEXT_TOKENS: 'big' })).toThrow(/AI_CONTEXT_TOKENS/);
    // ASK_MAX_PASSAGE_TOKENS: unset (or empty, as in .env.example) means a quarter of the context.
    expect(
      loadConfig({ ...base, ASK_MAX_PASSAGE_TOKENS: '' }).ASK_MAX_PASSAGE_TOKENS,
    ).toBeUndefined();
    expect(loadConfig({ ...base, ASK_MAX_PASSAGE_TOKENS: '900' }).ASK_MAX_PASSAGE_TOKENS).toBe(900);
    expect(server.app.ai.contextTokens()).toBe(CONTEXT);
  });

  it.each([
    ['/api/summarize', {}],
    ['/api/translate', { target_language: 'French' }],
    ['/api/askQuestions', { text: 'What did the keeper log at dawn?' }],
  ])('%s keeps every prompt and its reply within it', async (path, fields) => {
    model.requests.length = 0;
    const res = await postForm(server, path, token, {
      file: { name: 'log.txt', bytes: text },
      fields,
    });
    expect(res.status).toBe(200);
    expect(model.requests.length).toBeGreaterThan(0);
    for (const r of model.requests) {
      const prompt = r.messages.reduce((n, m) => n + estimateTokens(m.content) + 8, 0);
      expect(prompt + (r.max_tokens ?? Infinity)).toBeLessThanOrEqual(CONTEXT);
    }
    // The document is ~2,500 tokens: it did not go whole into one prompt.
    if (path !== '/api/askQuestions') expect(model.requests.length).toBeGreaterThan(1);
  });
});
