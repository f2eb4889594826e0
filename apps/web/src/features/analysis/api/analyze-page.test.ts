import { afterEach, describe, expect, it } from 'vitest';
import { json, mockFetch } from '../../../test/utils';
import { session } from '../../../lib/session';
import { analyzeAccessibility } from './analyze-accessibility';
import { analyzeSeo } from './analyze-seo';

const seo = {
  seo_analysis: { url: 'https://example.com/', audits: [], ai_insights: '', score: 90 },
};
const accessibility = {
  accessibility_analysis: { url: 'https://example.com/', audits: [], ai_insights: '', score: 90 },
};

describe('page analyses', () => {
  afterEach(() => session.clear());

  const follow = { onProgress: () => undefined };
  const authorizations = async () => {
    const seen: (string | null)[] = [];
    mockFetch((req) => {
      seen.push(req.headers.get('Authorization'));
      return req.path === 'seo-analysis' ? json(200, seo) : json(200, accessibility);
    });
    await analyzeSeo('https://example.com/', follow).catch(() => undefined);
    await analyzeAccessibility('https://example.com/', follow).catch(() => undefined);
    return seen;
  };

  it("go with the token when signed in, so they are the person's after a reload", async () => {
    session.signIn({ access_token: 'access', refresh_token: 'refresh', first_name: 'Ada' });
    expect(await authorizations()).toEqual(['Bearer access', 'Bearer access']);
  });

  it('go without a token for an anonymous visitor', async () => {
    expect(await authorizations()).toEqual([null, null]);
  });
});
