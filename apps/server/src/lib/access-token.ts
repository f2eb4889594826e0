import { createSigner, createVerifier } from 'fast-jwt';

/** Short-lived access tokens (HS256 JWT). Refresh tokens are opaque and live in the database. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

export interface AccessClaims {
  userId: number;
  /** Refresh-token family of the session, so logout can end exactly this session. */
  sessionId: string;
}

/**
 * Signs and verifies with fast-jwt: synchronous node:crypto HMAC, and an LRU cache of verified
 * tokens (each entry lives no longer than its token's `exp`). WebCrypto (jose) cost about 0.3 ms
 * and a thread-pool round trip on every authenticated request, in the chat's time to first token.
 * A cached "valid" only means "signed by us and unexpired": `authenticate` still checks the
 * session in the database on every request, so logout takes effect at once.
 */
export class AccessTokens {
  private readonly signer: (payload: Record<string, unknown>) => string;
  private readonly verifier: (token: string) => Record<string, unknown>;

  constructor(secret: string, ttlSeconds = ACCESS_TOKEN_TTL_SECONDS) {
    this.signer = createSigner({ key: secret, algorithm: 'HS256', expiresIn: ttlSeconds * 1000 });
    // `exp` is required: a token we signed always has one, and one without it would never end.
    this.verifier = createVerifier({
      key: secret,
      algorithms: ['HS256'],
      requiredClaims: ['exp'],
      cache: 10_000,
    });
  }

  sign(claims: AccessClaims): string {
    return this.signer({ sub: String(claims.userId), sid: claims.sessionId, typ: 'access' });
  }

  /** Returns the claims, or null for a missing, malformed, expired or wrongly signed token. */
  verify(token: string): AccessClaims | null {
    let payload: Record<string, unknown>;
    try {
      payload = this.verifier(token);
    } catch {
      return null;
    }
    const userId = Number(payload.sub);
    if (
      payload.typ !== 'access' ||
      !Number.isSafeInteger(userId) ||
      typeof payload.sid !== 'string'
    )
      return null;
    return { userId, sessionId: payload.sid };
  }
}

/** The bearer token of an Authorization header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const m = header?.match(/^Bearer\s+(\S+)$/i);
  return m?.[1];
}
