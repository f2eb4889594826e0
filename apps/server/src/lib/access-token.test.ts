import { SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AccessTokens, bearerToken } from './access-token';

const SECRET = 'a'.repeat(64);

describe('AccessTokens', () => {
  afterEach(() => vi.useRealTimers());

  it('verifies its own tokens, also when jose made them with the same key and claims', async () => {
    const tokens = new AccessTokens(SECRET);
    const token = tokens.sign({ userId: 7, sessionId: 'family-1' });
    expect(tokens.verify(token)).toEqual({ userId: 7, sessionId: 'family-1' });
    const byJose = await new SignJWT({ sid: 'family-2', typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('8')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(SECRET));
    expect(tokens.verify(byJose)).toEqual({ userId: 8, sessionId: 'family-2' });
  });

  it('refuses another key, a changed payload, alg none and tokens that are not access tokens', async () => {
    const tokens = new AccessTokens(SECRET);
    const other = new AccessTokens('b'.repeat(64)).sign({ userId: 1, sessionId: 's' });
    expect(tokens.verify(other)).toBeNull();

    const [header, , signature] = tokens.sign({ userId: 1, sessionId: 's' }).split('.');
    const forged = Buffer.from(JSON.stringify({ sub: '2', sid: 's', typ: 'access' })).toString(
      'base64url',
    );
    expect(tokens.verify(`${header}.${forged}.${signature}`)).toBeNull();
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    expect(tokens.verify(`${none}.${forged}.`)).toBeNull();

    const refreshLike = await new SignJWT({ sid: 's', typ: 'refresh' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(SECRET));
    expect(tokens.verify(refreshLike)).toBeNull();
    expect(tokens.verify('not.a.token')).toBeNull();
  });

  it('refuses a correctly signed access token that has no expiry', async () => {
    const tokens = new AccessTokens(SECRET);
    const forever = await new SignJWT({ sid: 'family-3', typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('9')
      .sign(new TextEncoder().encode(SECRET));
    expect(tokens.verify(forever)).toBeNull();
    // Asked twice: a refusal is not turned into a cached acceptance.
    expect(tokens.verify(forever)).toBeNull();
  });

  it('stops accepting a token at its expiry although the verified token is cached', () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z'), toFake: ['Date'] });
    const tokens = new AccessTokens(SECRET, 60);
    const token = tokens.sign({ userId: 3, sessionId: 's' });
    expect(tokens.verify(token)).not.toBeNull(); // now in the cache
    vi.setSystemTime(new Date('2026-01-01T00:00:59Z'));
    expect(tokens.verify(token)).not.toBeNull();
    vi.setSystemTime(new Date('2026-01-01T00:01:01Z'));
    expect(tokens.verify(token)).toBeNull();
  });
});

describe('bearerToken', () => {
  it('reads the token of a Bearer header only', () => {
    expect(bearerToken('Bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(bearerToken('bearer abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});
