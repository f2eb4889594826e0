import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proofreadResponseSchema, type ProofreadResponse } from '@inkwell/contract';
import { multipart, openEventStream } from '../../../test/event-stream-client';
import { startOpenAITestServer, type OpenAITestServer } from '../../../test/openai-test-server';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-app';
import { makePptx } from '../files/testing';
import { postForm } from './test-helpers';

/**
 * Proofreading over HTTP, with a pptx shaped like the deck of issue 40 (an HBCU leadership summit:
 * acronyms with a plural s, a person's name, a title in capitals). The model answers only after a
 * minute: the findings must come before it, and the corrected text must keep every name.
 */
const SLIDES = [
  ['Positioning HBCUs for the Future', 'Michelle Asha Cooper, President, IHEP'],
  ['HIGHER EDUCTION LANDSCAPE', 'IHEP works with HBCUs to recieve federal funding.'],
  ['Asha Cooper leads IHEP.', 'The reserch of IHEP shows that HBCUs graduate many students.'],
  ['Next steps', 'We met Dr. Okonkwo tomorow to plan the IHEP report.'],
];

describe('proofread a deck', () => {
  let model: OpenAITestServer;
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    model = await startOpenAITestServer({ delayMs: 60_000, reply: () => 'Notes.' });
    server = await startTestServer({ env: { AI_BASE_URL: model.url } });
    token = (await registerUser(server)).token;
  });
  afterAll(async () => {
    await server?.close();
    await model?.close();
  });

  it('streams the findings before the model answers; the corrected text keeps every name', async () => {
    const stream = await openEventStream(server.url, {
      path: '/api/proofread',
      token,
      body: await multipart({}, { name: 'summit.pptx', bytes: await makePptx(SLIDES) }),
    });
    expect(stream.status).toBe(200);
    const first = await stream.waitFor((e) => ['partial', 'done', 'error'].includes(e.event));
    expect(first.event).toBe('partial');
    // The model holds its answer for a minute: nothing has ended.
    expect(stream.events.some((e) => e.event === 'done')).toBe(false);
    const result: ProofreadResponse = proofreadResponseSchema.parse(first.data);
    expect(result.ai).toBe(false);
    const text = result.corrected_text;
    for (const word of ['HBCUs', 'IHEP', 'Asha', 'EDUCTION', 'Okonkwo']) {
      const before = SLIDES.flat().join('\n').split(word).length;
      expect(text.split(word).length, word).toBe(before);
    }
    expect(text).toContain('Michelle Asha Cooper, President, IHEP');
    expect(text).toContain('HIGHER EDUCTION LANDSCAPE');
    expect(text).toContain('to receive federal funding');
    expect(text).toContain('The research of IHEP');
    expect(text).toContain('We met Dr. Okonkwo tomorrow');
    // Every change is listed with what it replaced; the rest with why it was kept.
    const applied = result.issues.filter((i) => i.correction !== undefined);
    expect(applied.map((i) => [i.original, i.correction])).toEqual([
      ['recieve', 'receive'],
      ['reserch', 'research'],
      ['tomorow', 'tomorrow'],
    ]);
    const keptAs = (w: string) => result.issues.find((i) => i.original === w)?.kept;
    expect(keptAs('HBCUs')).toBe('acronym');
    expect(keptAs('IHEP')).toBe('acronym');
    expect(keptAs('EDUCTION')).toBe('all-caps');
    expect(keptAs('Asha')).toBe('name');
    // The progress events carry no copy of the findings.
    for (const e of stream.events.filter((x) => x.event === 'progress')) {
      expect(e.data).not.toHaveProperty('partial');
    }
    const job = stream.events.find((e) => e.event === 'job')!.data as { id: string };
    stream.hangUp();
    await server.request(`/api/jobs/${job.id}`, { method: 'DELETE', token });
  });

  it("a word of the user's dictionary is not flagged", async () => {
    const other = (await registerUser(server)).token;
    const text = 'We met Okonkwo at the summit.';
    const check = async () => {
      // The model holds: the findings come as they would in the web app, from the stream.
      const stream = await openEventStream(server.url, {
        path: '/api/proofread',
        token: other,
        body: await multipart({}, { name: 'note.txt', bytes: Buffer.from(text) }),
      });
      const partial = await stream.waitFor((e) => e.event === 'partial');
      const job = stream.events.find((e) => e.event === 'job')!.data as { id: string };
      stream.hangUp();
      await server.request(`/api/jobs/${job.id}`, { method: 'DELETE', token: other });
      return proofreadResponseSchema.parse(partial.data).issues.map((i) => i.original);
    };
    expect(await check()).toContain('Okonkwo');
    const add = await server.request('/api/dictionary', {
      method: 'POST',
      token: other,
      json: { word: 'Okonkwo' },
    });
    expect(add.status).toBe(201);
    expect(await check()).not.toContain('Okonkwo');
  });
});

describe('proofread without a model', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer();
    token = (await registerUser(server)).token;
  });
  afterAll(async () => server?.close());

  it('answers the findings as one JSON body, as before', async () => {
    const res = await postForm(server, '/api/proofread', token, {
      file: { name: 'summit.pptx', bytes: await makePptx(SLIDES) },
    });
    expect(res.status).toBe(200);
    const body = proofreadResponseSchema.parse(await res.json());
    expect(body.ai).toBe(false);
    expect(body.response).toMatch(/The corrected text applies 3 safe corrections/);
    expect(body.corrected_text).toContain('Positioning HBCUs for the Future');
  });
});
