import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeFetch, type SafeFetchOptions } from './safe-fetch';
import { startFixtureServer, type FixtureServer } from '../test-fixtures/fixture-server';

// End-to-end refusals use loopback addresses only (127.0.0.0/8, ::1): no traffic leaves the machine.
let server: FixtureServer;
const allow127: SafeFetchOptions = { allowHosts: ['127.0.0.1'], accept: 'html' };

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.close());

async function refusal(url: string, opts: SafeFetchOptions = allow127) {
  const err = (await safeFetch(url, opts).then(
    () => undefined,
    (e: unknown) => e,
  )) as { statusCode: number; message: string } | undefined;
  expect(err, `${url} should be refused`).toBeDefined();
  return err!;
}

describe('safeFetch', () => {
  it('fetches an allowed host, with status, headers and body', async () => {
    const page = await safeFetch(`${server.origin}/clean`, allow127);
    expect(page.status).toBe(200);
    expect(page.contentType).toMatch(/text\/html/);
    expect(page.body.toString()).toContain('Growing a writing garden');
  });

  it('follows a redirect to the same allowed host', async () => {
    const page = await safeFetch(`${server.origin}/redirect?to=/clean`, allow127);
    expect(page.url).toBe(`${server.origin}/clean`);
    expect(page.redirects).toEqual([`${server.origin}/redirect?to=/clean`]);
  });

  it('returns 4xx HTML pages (the status is itself an SEO finding)', async () => {
    expect((await safeFetch(`${server.origin}/missing`, allow127)).status).toBe(404);
  });

  it.each([
    [
      '127.0.0.2',
      () => `http://127.0.0.2:${server.port}/clean`,
      /127\.0\.0\.2 is a loopback address/,
    ],
    ['::1', () => `http://[::1]:${server.port}/clean`, /::1 is a loopback address/],
    [
      'localhost',
      () => `http://localhost:${server.port}/clean`,
      /localhost resolves to .*loopback/,
    ],
    ['0.0.0.0', () => `http://0.0.0.0:${server.port}/clean`, /unspecified/],
    ['an IPv4-mapped ::1', () => `http://[::ffff:127.0.0.1]:${server.port}/clean`, /IPv4-mapped/],
    [
      'a decimal loopback',
      () => `http://2130706434:${server.port}/clean`,
      /127\.0\.0\.2 is a loopback/,
    ],
  ])('refuses %s when it is not allowed', async (_name, url, message) => {
    const before = server.hits.length;
    const err = await refusal(url());
    expect(err.statusCode).toBe(400);
    expect(err.message).toMatch(message);
    expect(server.hits.length).toBe(before);
  });

  it('refuses a redirect from an allowed host to a loopback address that is not allowed', async () => {
    const err = await refusal(`${server.origin}/redirect?to=http://127.0.0.3:${server.port}/clean`);
    expect(err.statusCode).toBe(400);
    expect(err.message).toMatch(/127\.0\.0\.3 is a loopback address/);
  });

  it('refuses a redirect to 127.0.0.1 when only the first host is allowed', async () => {
    let other: FixtureServer;
    try {
      other = await startFixtureServer('127.0.0.2');
    } catch {
      return; // 127.0.0.2 cannot be bound here; the 127.0.0.3 case above covers the logic
    }
    try {
      const opts = { allowHosts: ['127.0.0.2'], accept: 'html' as const };
      expect((await safeFetch(`${other.origin}/clean`, opts)).status).toBe(200);
      const before = server.hits.length;
      const err = await refusal(`${other.origin}/redirect?to=${server.origin}/clean`, opts);
      expect(err.message).toMatch(/127\.0\.0\.1 is a loopback address/);
      expect(server.hits.length).toBe(before);
    } finally {
      await other.close();
    }
  });

  it('refuses more than 5 redirects', async () => {
    const err = await refusal(`${server.origin}/chain/0`);
    expect(err.message).toMatch(/more than 5 redirects/);
    expect(server.hits.filter((h) => h.startsWith('/chain/')).length).toBe(6);
  });

  it.each([
    ['ftp://127.0.0.1/file', /only http and https/],
    ['file:///etc/passwd', /only http and https/],
    ['javascript:alert(1)', /only http and https/],
    ['http://user:pw@127.0.0.1/', /user name or password/],
    ['not a url', /full web address/],
  ])('refuses %s', async (url, message) => {
    const err = await refusal(url);
    expect(err.statusCode).toBe(400);
    expect(err.message).toMatch(message);
  });

  it('refuses content that is not HTML', async () => {
    const err = await refusal(`${server.origin}/json`);
    expect(err.message).toMatch(/not answer with an HTML page \(content type: application\/json\)/);
  });

  it('refuses a body over 5 MB while it streams', async () => {
    const err = await refusal(`${server.origin}/huge`);
    expect(err.statusCode).toBe(400);
    expect(err.message).toMatch(/larger than 5 MB/);
  });

  it('gives up after the time limit', async () => {
    const err = await refusal(`${server.origin}/slow`, { ...allow127, timeoutMs: 300 });
    expect(err.statusCode).toBe(504);
    expect(err.message).toMatch(/did not answer within 0.3 seconds/);
  });

  it('reports a closed port as unreachable', async () => {
    const closed = await startFixtureServer();
    const origin = closed.origin;
    await closed.close();
    const err = await refusal(`${origin}/clean`);
    expect(err.statusCode).toBe(502);
    expect(err.message).toMatch(/ECONNREFUSED/);
  });
});
