import { describe, expect, it } from 'vitest';
import { callsTo, json, mockFetch } from '../test/utils';
import { ApiError, apiRequest, apiUrl } from './api-client';
import { API_MESSAGES } from './api-messages';
import { session } from './session';

const signedIn = () =>
  session.signIn({ access_token: 'old-access', refresh_token: 'old-refresh', first_name: 'Ada' });

describe('apiRequest', () => {
  it('sends the bearer access token and parses JSON', async () => {
    signedIn();
    const fetchMock = mockFetch((req) =>
      req.path === 'user' ? json(200, { auth: req.headers.get('Authorization') }) : undefined,
    );
    await expect(apiRequest('user')).resolves.toEqual({ auth: 'Bearer old-access' });
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/user');
  });

  it('sends JSON bodies with a content type', async () => {
    const fetchMock = mockFetch((req) => (req.path === 'login' ? json(200, req.body) : undefined));
    await expect(
      apiRequest('login', { method: 'POST', body: { a: 1 }, auth: false }),
    ).resolves.toEqual({ a: 1 });
    const init = fetchMock.mock.calls[0]?.[1];
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json');
    expect(new Headers(init?.headers).get('Authorization')).toBeNull();
  });

  it('on a 401 refreshes once, stores the rotated tokens and retries once', async () => {
    signedIn();
    const fetchMock = mockFetch((req) => {
      if (req.path === 'token/refresh') {
        expect(req.headers.get('Authorization')).toBe('Bearer old-refresh');
        return json(200, { access_token: 'new-access', refresh_token: 'new-refresh' });
      }
      if (req.path === 'user') {
        return req.headers.get('Authorization') === 'Bearer new-access'
          ? json(200, { ok: true })
          : json(401, { error: 'Invalid or expired token' });
      }
      return undefined;
    });
    await expect(apiRequest('user')).resolves.toEqual({ ok: true });
    expect(callsTo(fetchMock, 'user')).toHaveLength(2);
    expect(callsTo(fetchMock, 'token/refresh')).toHaveLength(1);
    expect(localStorage.getItem('accessToken')).toBe('new-access');
    expect(localStorage.getItem('refreshToken')).toBe('new-refresh');
  });

  it('retries only once: a second 401 fails the request', async () => {
    signedIn();
    const fetchMock = mockFetch((req) => {
      if (req.path === 'token/refresh')
        return json(200, { access_token: 'a2', refresh_token: 'r2' });
      if (req.path === 'user') return json(401, { error: 'nope' });
      return undefined;
    });
    const err = await apiRequest('user').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(401);
    expect(callsTo(fetchMock, 'user')).toHaveLength(2);
    expect(callsTo(fetchMock, 'token/refresh')).toHaveLength(1);
  });

  it('fails the original request when no refresh token is stored, and logs why', async () => {
    localStorage.setItem('accessToken', 'only-access');
    const fetchMock = mockFetch((req) =>
      req.path === 'user' ? json(401, { error: 'x' }) : undefined,
    );
    await expect(apiRequest('user')).rejects.toMatchObject({ status: 401 });
    expect(callsTo(fetchMock, 'token/refresh')).toHaveLength(0);
    const logged = callsTo(fetchMock, 'logs').map(([, init]) => String(init?.body));
    expect(logged.some((b) => b.includes(API_MESSAGES.noRefreshToken))).toBe(true);
  });

  it('fails when the refresh answer has no access_token', async () => {
    signedIn();
    const fetchMock = mockFetch((req) => {
      if (req.path === 'token/refresh') return json(200, { refresh_token: 'r2' });
      if (req.path === 'user') return json(401, { error: 'x' });
      return undefined;
    });
    await expect(apiRequest('user')).rejects.toMatchObject({ status: 401 });
    expect(callsTo(fetchMock, 'user')).toHaveLength(1);
    const logged = callsTo(fetchMock, 'logs').map(([, init]) => String(init?.body));
    expect(logged.some((b) => b.includes(API_MESSAGES.noAccessToken))).toBe(true);
  });

  it('shares one refresh between concurrent 401s (refresh tokens rotate)', async () => {
    signedIn();
    const fetchMock = mockFetch(async (req) => {
      if (req.path === 'token/refresh') {
        await new Promise((r) => setTimeout(r, 10));
        return json(200, { access_token: 'new-access', refresh_token: 'new-refresh' });
      }
      if (req.path === 'a' || req.path === 'b') {
        return req.headers.get('Authorization') === 'Bearer new-access'
          ? json(200, req.path)
          : json(401, {});
      }
      return undefined;
    });
    await expect(Promise.all([apiRequest('a'), apiRequest('b')])).resolves.toEqual(['a', 'b']);
    expect(callsTo(fetchMock, 'token/refresh')).toHaveLength(1);
  });

  it('retries without a second refresh when a 401 arrives after another request refreshed', async () => {
    signedIn();
    let answerLate: () => void = () => {};
    const late = new Promise<void>((r) => (answerLate = r));
    const fetchMock = mockFetch(async (req) => {
      if (req.path === 'token/refresh') {
        return json(200, { access_token: 'new-access', refresh_token: 'new-refresh' });
      }
      const fresh = req.headers.get('Authorization') === 'Bearer new-access';
      // 'slow' was sent with the old token; its 401 comes once 'fast' has refreshed and retried.
      if (req.path === 'slow' && !fresh) await late;
      return fresh ? json(200, req.path) : json(401, {});
    });
    const slow = apiRequest('slow');
    await expect(apiRequest('fast')).resolves.toBe('fast');
    answerLate();
    await expect(slow).resolves.toBe('slow');
    expect(callsTo(fetchMock, 'token/refresh')).toHaveLength(1);
    expect(localStorage.getItem('refreshToken')).toBe('new-refresh');
  });

  it('does not refresh for calls made without a token (auth: false)', async () => {
    signedIn();
    const fetchMock = mockFetch((req) =>
      req.path === 'login' ? json(401, { error: 'Invalid credentials' }) : undefined,
    );
    await expect(
      apiRequest('login', { method: 'POST', body: {}, auth: false }),
    ).rejects.toMatchObject({
      status: 401,
      serverMessage: 'Invalid credentials',
    });
    expect(callsTo(fetchMock, 'token/refresh')).toHaveLength(0);
  });

  it.each([
    [413, API_MESSAGES.tooLarge],
    [429, API_MESSAGES.rateLimited],
    [500, API_MESSAGES.other],
    [400, API_MESSAGES.other],
  ])('maps status %i to the spec message', async (status, message) => {
    mockFetch((req) => (req.path === 'x' ? json(status, { error: 'server says' }) : undefined));
    await expect(apiRequest('x')).rejects.toMatchObject({
      status,
      message,
      serverMessage: 'server says',
    });
  });

  it('adds the wait of a 429 in words, from Retry-After', async () => {
    mockFetch((req) =>
      req.path === 'x'
        ? new Response(JSON.stringify({ error: 'slow down' }), {
            status: 429,
            headers: { 'content-type': 'application/json', 'retry-after': '290' },
          })
        : undefined,
    );
    await expect(apiRequest('x')).rejects.toMatchObject({
      status: 429,
      message: `${API_MESSAGES.rateLimited} Try again in 5 minutes.`,
    });
  });

  it('maps a missing response to the network message', async () => {
    mockFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    await expect(apiRequest('x')).rejects.toMatchObject({
      status: null,
      message: API_MESSAGES.network,
    });
  });

  it('reports failures to /api/logs as timestamped ERROR lines', async () => {
    const fetchMock = mockFetch((req) =>
      req.path === 'x' ? json(500, { error: 'boom' }) : undefined,
    );
    await expect(apiRequest('x')).rejects.toBeInstanceOf(ApiError);
    const [log] = callsTo(fetchMock, 'logs');
    const body = JSON.parse(String(log?.[1]?.body)) as { message: string; level: string };
    expect(body.level).toBe('ERROR');
    expect(body.message).toMatch(/^\d{4}-\d{2}-\d{2}T.* \[ERROR\] GET x failed: 500 boom$/);
  });

  it('does not log when asked not to', async () => {
    const fetchMock = mockFetch(() => json(404, { error: 'unknown' }));
    await expect(apiRequest('region', { log: false })).rejects.toMatchObject({ status: 404 });
    expect(callsTo(fetchMock, 'logs')).toHaveLength(0);
  });

  it('validates answers with a contract schema', async () => {
    mockFetch(() => json(200, { nope: true }));
    const schema = {
      parse: (d: unknown) => {
        if (!(d as { ok?: boolean }).ok) throw new Error('bad');
        return d;
      },
    };
    await expect(apiRequest('x', { schema })).rejects.toMatchObject({
      message: API_MESSAGES.other,
    });
  });

  it('returns blobs for downloads', async () => {
    mockFetch(
      () => new Response('a,b\n1,2', { status: 200, headers: { 'Content-Type': 'text/csv' } }),
    );
    const blob = await apiRequest<Blob>('data-portability', { responseType: 'blob' });
    expect(await blob.text()).toBe('a,b\n1,2');
  });
});

describe('apiUrl', () => {
  it('prefixes the base path from the <base> element', () => {
    const base = document.createElement('base');
    base.setAttribute('href', '/assistant/');
    document.head.appendChild(base);
    try {
      expect(apiUrl('user')).toBe('/assistant/api/user');
      expect(apiUrl('/api/user')).toBe('/assistant/api/user');
    } finally {
      base.remove();
    }
    expect(apiUrl('user')).toBe('/api/user');
  });
});
