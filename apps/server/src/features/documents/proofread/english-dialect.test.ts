import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProofreadResponse } from '@inkwell/contract';
import { registerUser, startTestServer, type TestServer } from '../../../../test/test-app';
import { postForm } from '../test-helpers';
import { detectEnglishDialect, dialectFor, type Dialect } from './english-dialect';
import { lintText } from './harper';

const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/${name}.txt`, import.meta.url), 'utf8');

describe('the English of a text', () => {
  it('is read from the spellings that tell the dialects apart', () => {
    expect(detectEnglishDialect('The colour of the harbour; we organised the centre.')).toBe(
      'british',
    );
    expect(detectEnglishDialect('The color of the harbor; we organized the center.')).toBe(
      'american',
    );
    expect(detectEnglishDialect('The colour of the harbour: we organized the neighbours.')).toBe(
      'canadian',
    );
    expect(detectEnglishDialect('They travelled to analyse the grey mould.')).toBe('british');
    expect(detectEnglishDialect('Nothing here tells.')).toBe('american');
    expect(detectEnglishDialect(fixture('british'))).toBe('british');
  });

  it('is the account setting when one is chosen', () => {
    expect(dialectFor('australian', 'The color of the harbor.')).toBe('australian');
    expect(dialectFor('auto', 'The colour of the harbour.')).toBe('british');
    expect(dialectFor(undefined, 'The color.')).toBe('american');
  });
});

// Harper starts in a worker (compiling its WebAssembly, ~2 s idle, far more on a loaded machine).
describe('proofreading in the writer’s English', { timeout: 180_000 }, () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(); // no model: Harper's findings alone
    token = (await registerUser(server)).token;
  });
  afterAll(async () => server?.close());

  const proofread = async (text: string) => {
    const res = await postForm(server, '/api/proofread', token, {
      file: { name: 'notes.txt', bytes: text },
    });
    expect(res.status).toBe(200);
    return (await res.json()) as ProofreadResponse;
  };
  const spellings = (text: string, r: ProofreadResponse) =>
    r.issues
      .filter((i) => /spell/i.test(i.rule))
      .map((i) => text.slice(i.offset, i.offset + i.length));

  it('gives a British text no American corrections, unless the account asks for American', async () => {
    const text = 'Notes about the harbour works and the colour of the neighbouring buildings.';
    const british = await proofread(text);
    expect(spellings(text, british)).toEqual([]);
    expect(british.corrected_text).toBe(text);

    const put = await server.request('/api/user', {
      method: 'PUT',
      json: { english_dialect: 'american' },
      token,
    });
    expect(put.status).toBe(200);
    const american = await proofread(text);
    expect(spellings(text, american)).toContain('harbour');
    expect(american.corrected_text).toContain('harbor');
    await server.request('/api/user', { method: 'PUT', json: { english_dialect: 'auto' }, token });
  });

  it.each([
    ['british', 'british'],
    ['australian', 'australian'],
    ['canadian', 'canadian'],
  ] as [string, Dialect][])(
    'finds no spelling in the %s text that only its dialect explains',
    async (name, dialect) => {
      const text = fixture(name);
      const found = spellings(text, await proofread(text));
      const inItsOwnEnglish = new Set(
        (await lintText(text, dialect))
          .filter((f) => /spell/i.test(f.rule))
          .map((f) => text.slice(f.start, f.end)),
      );
      expect(found.filter((w) => !inItsOwnEnglish.has(w))).toEqual([]);
      // The same text checked as American English does get such corrections (the test can fail).
      const american = (await lintText(text, 'american')).filter((f) => /spell/i.test(f.rule));
      if (name === 'british') expect(american.length).toBeGreaterThan(inItsOwnEnglish.size);
    },
  );
});
