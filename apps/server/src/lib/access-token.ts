import { SignJWT, jwtVerify } from 'jose';

/** Short-lived access tokens (HS256 JWT). Refresh tokens are opaque and live in the database. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

export interface AccessClaims {
  userId: number;
  /** Refresh-token family of the session, so logout can end exactly this session. */
  sessionId: string;
}

export class AccessTokens {
  /**
   * Imported once: given raw bytes, jose imports a WebCrypto key on every call, about a
   * millisecond of CPU on each authenticated request.
   */
  private readonly key: Promise<CryptoKey>;

  constructor(
    secret: string,
    private readonly ttlSeconds = ACCESS_TOKEN_TTL_SECONDS,
  ) {
    this.key = crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    );
  }

  async sign(claims: AccessClaims): Promise<string> {
    return new SignJWT({ sid: claims.sessionId, typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(claims.userId))
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + this.ttlSeconds)
      .sign(await this.key);
  }

  /** Returns the claims, or null for a missing, malformed, expired or wrongly signed token. */
  async verify(token: string): Promise<AccessClaims | null> {
    try {
      const { payload } = await jwtVerify(token, await this.key, { algorithms: ['HS256'] });
      const userId = Number(payload.sub);
      if (
        payload.typ !== 'access' ||
        !Number.isSafeInteger(userId) ||
        typeof payload.sid !== 'string'
      ) {
        return null;
      }
      return { userId, sessionId: payload.sid };
    } catch {
      return null;
    }
  }
}

/** The bearer token of an Authorization header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const m = header?.match(/^Bearer\s+(\S+)$/i);
  return m?.[1];
}
