import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { UserRole } from '@inkwell/contract';
import { AccessTokens, bearerToken } from '../lib/access-token';
import { routeNotFound, unauthorized } from '../lib/http-error';
import { effectiveRole } from '../lib/roles';

export interface AuthUser {
  id: number;
  email: string;
  firstName: string;
  sessionId: string;
  role: UserRole;
}

declare module 'fastify' {
  interface FastifyInstance {
    accessTokens: AccessTokens;
    /** onRequest hook of protected routes: 401 unless a valid access token of an active user. */
    authenticate: (request: FastifyRequest) => Promise<void>;
    /** Like authenticate when a token comes with the request; anonymous (authUser null) without one. */
    authenticateOptional: (request: FastifyRequest) => Promise<void>;
    /**
     * onRequest hook after `authenticate` on operator routes: a signed-in non-operator gets the
     * same 404 as an address that does not exist.
     */
    requireOperator: (request: FastifyRequest) => Promise<void>;
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
    // The signature check is cached, but this look-up runs on every request, on whichever app
    // server gets it, against the one database they share: a token outlives neither its user,
    // nor its session (logout, password change, deletion), nor the account being disabled.
    // Disabling adds no query of its own: it is one more condition of the session look-up that
    // logout already needs (one indexed join), so it takes effect at once everywhere, with no
    // cache to expire and no token version to carry.
    const row = await app.db
      .selectFrom('users')
      .innerJoin('refresh_tokens', 'refresh_tokens.user_id', 'users.id')
      .select(['users.id', 'users.email', 'users.first_name', 'users.role'])
      .where('users.id', '=', claims.userId)
      .where('users.disabled_at', 'is', null)
      .where('refresh_tokens.family_id', '=', claims.sessionId)
      .where('refresh_tokens.revoked_at', 'is', null)
      .limit(1)
      .executeTakeFirst();
    if (!row) throw unauthorized('Invalid or expired token');
    request.authUser = {
      id: row.id,
      email: row.email,
      firstName: row.first_name,
      sessionId: claims.sessionId,
      role: effectiveRole(row, app.config.ADMIN_EMAILS),
    };
  });
  app.decorate('authenticateOptional', async (request: FastifyRequest) => {
    if (request.headers.authorization) await app.authenticate(request);
  });
  app.decorate('requireOperator', async (request: FastifyRequest) => {
    if (requireUser(request).role !== 'operator') throw routeNotFound(request.method, request.url);
  });
}

export default fp(authPlugin, { name: 'auth', dependencies: ['db'] });
