import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../test-fixtures/fixture-server';
import { safeFetch as fetchVia, type HostResolver, type SafeFetchOptions } from './safe-fetch';

/**
 * Host names resolving to private and metadata addresses, and DNS rebinding, with a resolver
 * that gives the test's answers: the refused addresses are classified and never connected to.
 */
const answers = new Map<string, string[][]>();
const calls: string[] = [];
const resolve: HostResolver = async (host) => {
  calls.push(host);
  const queue = answers.get(host);
  const next = queue && queue.length > 1 ? queue.shift()! : queue?.[0];
  if (!next) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return next.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};
const safeFetch = (url: string, opts: SafeFetchOptions) => fetchVia(url, { ...opts, resolve });

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.close());
beforeEach(() => {
  answers.clear();
  calls.length = 0;
});

const fail = (url: string, allowHosts: string[] = []) =>
  safeFetch(url, { allowHosts, accept: 'html' }).then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: { statusCode: number; message: string }) => e,
  );

describe('safeFetch with host names', () => {
  it.each([
    [
      'intranet.test',
      ['10.0.0.7'],
      /intranet\.test resolves to 10\.0\.0\.7, which is a private network address/,
    ],
    ['metadata.test', ['169.254.169.254'], /cloud metadata address/],
    ['cgnat.test', ['100.64.1.1'], /carrier-grade NAT/],
    ['mapped.test', ['::ffff:10.0.0.1'], /IPv4-mapped/],
    // One bad address among good ones is enough: the connection could fall back to it.
    ['mixed.test', ['93.184.215.14', '192.168.0.10'], /192\.168\.0\.10, which is a private/],
  ])('refuses %s (resolves to %j) without connecting', async (host, addresses, message) => {
    answers.set(host, [addresses]);
    const err = await fail(`http://${host}/`);
    expect(err.statusCode).toBe(400);
    expect(err.message).toMatch(message);
  });

  it('refuses a metadata address even for an allowed host', async () => {
    answers.set('metadata.test', [['169.254.169.254']]);
    expect((await fail('http://metadata.test/', ['metadata.test'])).message).toMatch(/metadata/);
  });

  it.each([
    ['::ffff:169.254.169.254', /IPv4-mapped/],
    ['64:ff9b::a9fe:a9fe', /reserved/],
    ['169.254.169.123', /link-local/],
  ])('refuses %s for an allowed host too (metadata in other clothes)', async (address, message) => {
    answers.set('allowed.test', [[address]]);
    const err = await fail('http://allowed.test/', ['allowed.test']);
    expect(err.statusCode).toBe(400);
    expect(err.message).toMatch(message);
    expect(calls).toEqual(['allowed.test']);
  });

  it('explains an unresolvable host', async () => {
    expect((await fail('http://nowhere.test/')).message).toBe(
      'Could not resolve the host name nowhere.test.',
    );
  });

  it('connects to the vetted address, not to a second DNS answer (no rebinding)', async () => {
    // The first answer is vetted (allowed loopback); a rebinding resolver would answer 10.0.0.1 next.
    answers.set('pinned.test', [['127.0.0.1'], ['10.0.0.1']]);
    const page = await safeFetch(`http://pinned.test:${server.port}/clean`, {
      allowHosts: ['pinned.test'],
      accept: 'html',
    });
    expect(page.status).toBe(200);
    expect(calls).toEqual(['pinned.test']);
  });

  it('vets every redirect hop by name too', async () => {
    answers.set('start.test', [['127.0.0.1']]);
    answers.set('internal.test', [['172.16.0.9']]);
    const err = await fail(`http://start.test:${server.port}/redirect?to=http://internal.test/`, [
      'start.test',
    ]);
    expect(err.message).toMatch(/internal\.test resolves to 172\.16\.0\.9/);
    expect(calls).toEqual(['start.test', 'internal.test']);
  });

  it("gives up on a name server that never answers, within the fetch's deadline", async () => {
    const silent: HostResolver = () => new Promise(() => {});
    const err = await fetchVia('http://silent.test/', {
      allowHosts: [],
      accept: 'html',
      timeoutMs: 200,
      resolve: silent,
    }).then(
      () => undefined,
      (e: { statusCode: number; message: string }) => e,
    );
    expect(err?.statusCode).toBe(504);
    expect(err?.message).toMatch(/did not answer within 0.2 seconds/);
  });
});
