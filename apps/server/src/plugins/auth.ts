import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AccessTokens, bearerToken } from '../lib/access-token';
import { unauthorized } from '../lib/http-error';

export interface AuthUser {
  id: number;
  email: string;
  firstName: string;
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    accessTokens: AccessTokens;
    /** preHandler for protected routes: 401 unless a valid access token of an existing user. */
    authenticate: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    /** Set by `authenticate`; read it through `requireUser(request)`. */
    authUser: AuthUser | null;
  }
}

/** The signed-in user of a request that passed `authenticate`. */
export function requireUser(request: FastifyRequest): AuthUser {
  if (!request.authUser) throw unauthorized();
  return request.authUser;
}

async function authPlugin(app: FastifyInstance) {
  app.decorate('accessTokens', new AccessTokens(app.config.JWT_SECRET));
  app.decorateRequest('authUser', null);
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const token = bearerToken(request.headers.authorization);
    if (!token) throw unauthorized('Authentication required');
    const claims = app.accessTokens.verify(token);
    if (!claims) throw unauthorized('Invalid or expired token');
    // A token outlives neither its user nor its session (logout, password change, deletion).
    const row = await app.db
      .selectFrom('users')
      .innerJoin('refresh_tokens', 'refresh_tokens.user_id', 'users.id')
      .select(['users.id', 'users.email', 'users.first_name'])
      .where('users.id', '=', claims.userId)
      .where('refresh_tokens.family_id', '=', claims.sessionId)
      .where('refresh_tokens.revoked_at', 'is', null)
      .executeTakeFirst();
    if (!row) throw unauthorized('Invalid or expired token');
    request.authUser = {
      id: row.id,
      email: row.email,
      firstName: row.first_name,
      sessionId: claims.sessionId,
    };
  });
}

export default fp(authPlugin, { name: 'auth', dependencies: ['db'] });
