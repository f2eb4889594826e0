import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  echoReply,
  startOpenAITestServer,
  type OpenAITestServer,
} from '../../../test/openai-test-server';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-app';
import { estimateTokens } from '../ai';
import { makeDocx } from '../files/testing';
import { chunkDocument } from './chunking';
import { expectedCalls, planSummary } from './summarize.service';
import { postForm, sentTexts } from './test-helpers';

/**
 * Documents far larger than the context, over HTTP: the model's window is made small (1024
 * tokens) so a ~25 000-token document must be chunked; no prompt + reply may exceed it.
 */
const CONTEXT = 1024;
const paragraphs = Array.from(
  { length: 400 },
  (_, i) =>
    `Entry ${i + 1}: the keeper logged item-${i + 1} at dawn, noting wind, tide and the state of the lamp in detail.`,
);

describe('chunking documents larger than the context', () => {
  let model: OpenAITestServer;
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    model = await startOpenAITestServer();
    server = await startTestServer({ env: { AI_BASE_URL: model.url } });
    vi.spyOn(server.app.ai, 'contextTokens').mockReturnValue(CONTEXT);
    token = (await registerUser(server)).token;
  });
  afterAll(async () => {
    await server?.close();
    await model?.close();
  });
  beforeEach(() => {
    model.requests.length = 0;
    model.setReply(echoReply);
  });

  const withinContext = () => {
    for (const r of model.requests) {
      const prompt = r.messages.reduce((n, m) => n + estimateTokens(m.content) + 8, 0);
      expect(prompt + (r.max_tokens ?? Infinity)).toBeLessThanOrEqual(CONTEXT);
    }
  };

  it('summarize: map-reduce over every part, within the context and the call bound', async () => {
    let n = 0;
    model.setReply(() => `Partial summary ${++n}.`);
    const docx = await makeDocx(paragraphs);
    const res = await postForm(server, '/api/summarize', token, {
      file: { name: 'log.docx', bytes: docx },
    });
    expect(res.status).toBe(200);
    const { summary } = (await res.json()) as { summary: string };
    expect(summary).toBe(`Partial summary ${n}.`);

    const sent = sentTexts(model.requests);
    for (let i = 1; i <= 400; i++) {
      expect(sent.filter((s) => s.includes(`item-${i} `)).length, `item-${i}`).toBe(1);
    }
    withinContext();
    const units = paragraphs.map((text, i) => ({
      kind: 'paragraph' as const,
      label: `Paragraph ${i + 1}`,
      text,
    }));
    const deps = { ai: server.app.ai };
    const plan = planSummary(deps);
    const chunks = chunkDocument(units, plan.chunkBudget, estimateTokens);
    const docTokens = paragraphs.reduce((s, p) => s + estimateTokens(p), 0);
    expect(chunks.length).toBeGreaterThanOrEqual(Math.ceil(docTokens / plan.chunkBudget));
    expect(model.requests.length).toBeGreaterThan(chunks.length); // map + combine steps
    expect(model.requests.length).toBeLessThanOrEqual(expectedCalls(chunks, plan));
    // Map prompts cite where their part is; the last call combines partial summaries.
    expect(sent[0]).toMatch(/\(Paragraph 1–\d+\)/);
    expect(sent.at(-1)).toMatch(/Combine these summaries/);
  });

  it('askQuestions: only the best passages of a large document go to the model', async () => {
    const text = paragraphs
      .join('\n\n')
      .replace('item-250 ', 'item-250 the lighthouse cat Zorblax ');
    const res = await postForm(server, '/api/askQuestions', token, {
      file: { name: 'log.txt', bytes: text },
      fields: { text: 'What is the name of the lighthouse cat Zorblax?' },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { response: string };
    expect(body.response).toContain('Paragraph 250');
    expect(model.requests).toHaveLength(1);
    const [sent] = sentTexts(model.requests);
    expect(sent).toContain('[Paragraph 250]\nEntry 250');
    expect(sent!.length).toBeLessThan(text.length / 4);
    withinContext();
  });

  it('translate: a long text is chunked by paragraph and reassembled in order', async () => {
    model.setReply((messages) => messages.at(-1)!.content.toUpperCase());
    const text = paragraphs.slice(0, 60).join('\n\n');
    const res = await postForm(server, '/api/translate', token, {
      fields: { text, target_language: 'German' },
    });
    expect(res.status).toBe(200);
    const { translation } = (await res.json()) as { translation: string };
    expect(model.requests.length).toBeGreaterThan(3);
    expect(translation).toBe(text.toUpperCase());
    expect(translation.split('\n\n')).toHaveLength(60);
    withinContext();
  });
});
