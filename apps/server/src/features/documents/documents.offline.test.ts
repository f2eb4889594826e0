import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MODEL_UNAVAILABLE_MESSAGE,
  type ProofreadResponse,
  type SentimentResponse,
  type FileExtension,
} from '@inkwell/contract';
import { startOpenAITestServer, type OpenAITestServer } from '../../../test/openai-test-server';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-app';
import { makeDocx, makePdf, makePptx, makeXlsx } from '../files/testing';
import { postForm, sentTexts, TYPES } from './test-helpers';

/**
 * Proofreading (Harper) and sentiment (VADER) work with no model at all; with a model, it only
 * writes `response`. Harper starts once for this file (~2 s) and is reused.
 */
const MISTAKES = 'This is an test. Their going to the store tomorow.';

async function mistakesFile(type: FileExtension): Promise<Uint8Array> {
  switch (type) {
    case 'txt':
    case 'csv':
      return Buffer.from(type === 'csv' ? `note\n"${MISTAKES}"\n` : MISTAKES);
    case 'xlsx':
      return makeXlsx({ Notes: [['note'], [MISTAKES]] });
    case 'docx':
      return makeDocx([MISTAKES]);
    case 'pptx':
      return makePptx([[MISTAKES]]);
    case 'pdf':
      return makePdf([MISTAKES]);
  }
}

const POSITIVE = 'I love this product, it is wonderful and works great!';
const NEGATIVE = 'Terrible quality. I hate it, a horrible waste of money.';

async function reviewsFile(type: FileExtension): Promise<Uint8Array> {
  const rows = [POSITIVE, NEGATIVE, POSITIVE];
  switch (type) {
    case 'txt':
      return Buffer.from(rows.join('\n\n'));
    case 'csv':
      return Buffer.from(
        `id,stars,review\n${rows.map((r, i) => `${i},${i % 2 ? 1 : 5},"${r}"`).join('\n')}\n`,
      );
    case 'xlsx':
      return makeXlsx({ Reviews: [['id', 'review'], ...rows.map((r, i) => [i, r])] });
    case 'docx':
      return makeDocx(rows);
    case 'pptx':
      return makePptx([rows]);
    case 'pdf':
      return makePdf([rows.join('\n\n')]);
  }
}

describe('without any model', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    // No AI_BASE_URL and no model file: the embedded provider reports itself unavailable.
    server = await startTestServer();
    token = (await registerUser(server)).token;
  });
  afterAll(async () => server?.close());

  it.each(TYPES)('proofread finds the known mistakes in a %s', async (type) => {
    const res = await postForm(server, '/api/proofread', token, {
      file: { name: `m.${type}`, bytes: await mistakesFile(type) },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as ProofreadResponse;
    expect(body.ai).toBe(false);
    expect(body.response).toMatch(
      /^Automatic check \(Harper, no AI model available\): \d+ possible issues/,
    );
    const found = body.issues.map((i) => i.suggestions[0]);
    expect(found).toEqual(expect.arrayContaining(['a', "They're", 'tomorrow']));
    expect(body.corrected_text).toContain("This is a test. They're going to the store tomorrow.");
    for (const i of body.issues) expect(i.length).toBeGreaterThan(0);
  });

  it('reports issue offsets into the document text', async () => {
    const res = await postForm(server, '/api/proofread', token, {
      file: { name: 'm.txt', bytes: MISTAKES },
    });
    const body = (await res.json()) as ProofreadResponse;
    const typo = body.issues.find((i) => i.suggestions[0] === 'tomorrow')!;
    expect(MISTAKES.slice(typo.offset, typo.offset + typo.length)).toBe('tomorow');
    expect(typo.rule).toMatch(/spell/i);
  });

  it.each(TYPES)('sentiment labels clearly positive and negative items of a %s', async (type) => {
    const res = await postForm(server, '/api/bulk-sentiment-analysis', token, {
      file: { name: `r.${type}`, bytes: await reviewsFile(type) },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as SentimentResponse;
    expect(body.ai).toBe(false);
    expect(body.items.map((i) => [i.text, i.label])).toEqual([
      [POSITIVE, 'positive'],
      [NEGATIVE, 'negative'],
      [POSITIVE, 'positive'],
    ]);
    expect(body.items[0]!.score).toBeGreaterThan(0.5);
    expect(body.items[1]!.score).toBeLessThan(-0.5);
    expect(body.overall.label).toBe('positive');
    expect(body.response).toMatch(
      /^Automatic analysis \(VADER, no AI model available\): 3 items: 2 positive, 1 negative/,
    );
    if (type === 'csv' || type === 'xlsx') expect(body.column).toBe('review');
  });

  it('sentiment of a workbook keeps each sheet to its own column', async () => {
    const bytes = await makeXlsx({
      Reviews: [
        ['id', 'Comment'],
        ['1', POSITIVE],
        ['2', NEGATIVE],
      ],
      Cover: [['Quarterly report'], ['Prepared by Ada']],
      Survey: [
        ['who', 'Feedback'],
        ['Bob', POSITIVE],
      ],
    });
    const res = await postForm(server, '/api/bulk-sentiment-analysis', token, {
      file: { name: 'book.xlsx', bytes },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as SentimentResponse;
    expect(body.columns).toEqual([
      { sheet: 'Reviews', column: 'Comment' },
      { sheet: 'Survey', column: 'Feedback' },
    ]);
    expect(body.items.map((i) => [i.sheet, i.text])).toEqual([
      ['Reviews', POSITIVE],
      ['Reviews', NEGATIVE],
      ['Survey', POSITIVE],
    ]);
  });

  it('the model-only actions answer 503 and no text means 400', async () => {
    const res = await postForm(server, '/api/summarize', token, {
      file: { name: 'a.txt', bytes: 'Some text.' },
    });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: string }).error).toBe(MODEL_UNAVAILABLE_MESSAGE);
    const empty = await postForm(server, '/api/proofread', token, {
      file: { name: 'a.txt', bytes: ' ' },
    });
    expect(empty.status).toBe(400);
  });
});

describe('with a model', () => {
  let model: OpenAITestServer;
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    model = await startOpenAITestServer({ reply: () => 'Model overview.' });
    server = await startTestServer({ env: { AI_BASE_URL: model.url } });
    token = (await registerUser(server)).token;
  });
  afterAll(async () => {
    await server?.close();
    await model?.close();
  });

  it('proofread: the model writes only the response, following the instruction', async () => {
    const res = await postForm(server, '/api/proofread', token, {
      file: { name: 'm.docx', bytes: await mistakesFile('docx') },
      fields: { text: 'Make it sound more formal' },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as ProofreadResponse;
    expect(body).toMatchObject({ response: 'Model overview.', ai: true });
    expect(body.corrected_text).toContain('tomorrow');
    const sent = sentTexts(model.requests).at(-1)!;
    expect(sent).toContain('The user asks: Make it sound more formal');
    expect(sent).toContain("They're going to the store tomorrow");
  });

  it('sentiment: the model gets the figures and the extreme items', async () => {
    const res = await postForm(server, '/api/bulk-sentiment-analysis', token, {
      file: { name: 'r.csv', bytes: await reviewsFile('csv') },
    });
    const body = (await res.json()) as SentimentResponse;
    expect(body).toMatchObject({
      response: 'Model overview.',
      ai: true,
      overall: { label: 'positive' },
    });
    const sent = sentTexts(model.requests).at(-1)!;
    expect(sent).toContain('2 positive, 1 negative');
    expect(sent).toContain(NEGATIVE);
  });

  it('falls back to the plain summary when the AI server fails', async () => {
    model.setFailure({ status: 500 });
    const res = await postForm(server, '/api/bulk-sentiment-analysis', token, {
      file: { name: 'r.txt', bytes: await reviewsFile('txt') },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as SentimentResponse).ai).toBe(false);
    model.setFailure({});
  });
});
