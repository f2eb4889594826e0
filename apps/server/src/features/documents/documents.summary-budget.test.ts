import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startOpenAITestServer, type OpenAITestServer } from '../../../test/openai-test-server';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-app';
import { estimateTokens } from '../ai';
import { makePdf } from '../files/testing';
import { planSummary } from './summarize.service';
import { postForm } from './test-helpers';

/**
 * Bounded summaries over HTTP: with SUMMARY_MAX_TOKENS=1500 and a 1024-token context, a 30-page
 * pdf of about 12 000 tokens is summarized from at most 1500 tokens of it, in a handful of model
 * calls, and still from every page; `mode=full` reads every sentence.
 */
const CONTEXT = 1024;
const BUDGET = 1500;
const PAGES = 30;
const PER_PAGE = 14;
const TOPICS = ['lamp', 'tide', 'storm', 'harbour', 'ledger', 'engine', 'signal', 'cargo'];

/** Sentence k of page p carries its own id `p{p}s{k}`, so the test sees which ones were read. */
const sentence = (p: number, k: number) =>
  `The keeper logged the ${TOPICS[p % 8]} in entry p${p}s${k} and noted the ` +
  `${TOPICS[(p + k) % 8]} beside it.`;
const pageTexts = (pages: number) =>
  Array.from({ length: pages }, (_, p) =>
    Array.from({ length: PER_PAGE }, (_, k) => sentence(p, k)).join(' '),
  );

const MAP_PROMPT = 'Summarize this part of a document';
const userText = (r: OpenAITestServer['requests'][number]) =>
  r.messages.find((m) => m.role === 'user')?.content ?? '';
/** The document text of each map call (the prompt line before it removed). */
const mapTexts = (model: OpenAITestServer) =>
  model.requests
    .map(userText)
    .filter((t) => t.startsWith(MAP_PROMPT))
    .map((t) => t.slice(t.indexOf('\n\n') + 2));
const promptTokens = (model: OpenAITestServer) =>
  model.requests.reduce(
    (n, r) => n + r.messages.reduce((m, msg) => m + estimateTokens(msg.content) + 8, 0),
    0,
  );
const idsRead = (texts: string[]) => texts.flatMap((t) => t.match(/p\d+s\d+/g) ?? []);

describe('bounded summaries (SUMMARY_MAX_TOKENS)', () => {
  let model: OpenAITestServer;
  let server: TestServer;
  let token: string;
  let pdf: Buffer;

  beforeAll(async () => {
    model = await startOpenAITestServer();
    server = await startTestServer({
      env: { AI_BASE_URL: model.url, SUMMARY_MAX_TOKENS: String(BUDGET) },
    });
    vi.spyOn(server.app.ai, 'contextTokens').mockReturnValue(CONTEXT);
    token = (await registerUser(server)).token;
    pdf = await makePdf(pageTexts(PAGES));
  });
  afterAll(async () => {
    await server?.close();
    await model?.close();
  });
  beforeEach(() => {
    model.requests.length = 0;
    let n = 0;
    model.setReply(() => `Partial summary ${++n}.`);
  });

  const summarize = (bytes: Buffer, fields?: Record<string, string>) =>
    postForm(server, '/api/summarize', token, { file: { name: 'log.pdf', bytes }, fields });

  it('reads at most the budget, from every page, in a bounded number of calls', async () => {
    const res = await summarize(pdf);
    expect(res.status).toBe(200);
    const { summary } = (await res.json()) as { summary: string };
    expect(summary).toBe(`Partial summary ${model.requests.length}.`);

    const texts = mapTexts(model);
    const read = texts.reduce((n, t) => n + estimateTokens(t), 0);
    expect(read).toBeLessThanOrEqual(BUDGET);
    expect(read).toBeGreaterThan(BUDGET * 0.8);
    // Every page is heard from, and its sentences are cited under its own page.
    const ids = idsRead(texts);
    for (let p = 0; p < PAGES; p++) expect(ids.some((id) => id.startsWith(`p${p}s`))).toBe(true);
    expect(ids.length).toBeLessThan(PAGES * PER_PAGE * 0.2);
    expect(new Set(ids).size).toBe(ids.length);
    expect(texts[0]).toMatch(/^The keeper logged the lamp in entry p0s\d+/);
    expect(model.requests.map(userText)[0]).toMatch(/\(Page 1–\d+\)/);

    // Chunks of at most chunkBudget, each at least half full but the last: map calls are bounded
    // by the budget, not by the document.
    const { chunkBudget } = planSummary({ ai: server.app.ai });
    const mapBound = Math.ceil((2 * BUDGET) / chunkBudget);
    expect(texts.length).toBeLessThanOrEqual(mapBound);
    expect(model.requests.length).toBeLessThanOrEqual(mapBound + 2);
    expect(model.requests.at(-1)!.messages.at(-1)!.content).toMatch(/^Combine these summaries/);
  });

  it('mode=full reads every sentence once, at the cost growing with the document', async () => {
    const bounded = await summarize(pdf, { mode: 'bounded' });
    expect(bounded.status).toBe(200);
    const boundedCalls = model.requests.length;
    const boundedTokens = promptTokens(model);
    model.requests.length = 0;

    const res = await summarize(pdf, { mode: 'full' });
    expect(res.status).toBe(200);
    const ids = idsRead(mapTexts(model));
    expect(ids).toHaveLength(PAGES * PER_PAGE);
    expect(new Set(ids).size).toBe(PAGES * PER_PAGE);
    expect(model.requests.length).toBeGreaterThan(3 * boundedCalls);
    expect(promptTokens(model)).toBeGreaterThan(4 * boundedTokens);
  });

  it('reads a document within the budget whole in the default mode', async () => {
    const small = await makePdf(pageTexts(3));
    const res = await summarize(small);
    expect(res.status).toBe(200);
    expect(idsRead(model.requests.map(userText))).toHaveLength(3 * PER_PAGE);
  });

  it('refuses an unknown mode before reading the file or calling the model', async () => {
    const res = await summarize(pdf, { mode: 'everything' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'mode must be bounded or full' });
    expect(model.requests).toHaveLength(0);
  });
});
