import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  changePasswordRequestSchema,
  deleteAccountRequestSchema,
  errorResponseSchema,
  successResponseSchema,
  updateUserRequestSchema,
  updateUserResponseSchema,
  userResponseSchema,
} from '@inkwell/contract';
import { requireUser } from '../../plugins/auth';
import * as users from './users.service';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema };
/** Routes that check the current password: past the sign-in limit they answer 429. */
const limited = { ...errors, 429: errorResponseSchema };

export async function usersRoutes(
  fastify: FastifyInstance,
  opts: Pick<users.UsersDeps, 'accountCleanup'>,
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps: users.UsersDeps = {
    db: app.db,
    tokens: app.accessTokens,
    adminEmails: app.config.ADMIN_EMAILS,
    accountCleanup: opts.accountCleanup,
    signInLimit: app.signInLimit,
  };
  const secured = { onRequest: app.authenticate };
  const session = (r: Parameters<typeof requireUser>[0]): users.UserSession => {
    const u = requireUser(r);
    return { userId: u.id, sessionId: u.sessionId, ip: r.ip };
  };
  const meta = { tags: ['users'], security: [{ bearer: [] }] };

  app.get(
    '/api/user',
    { ...secured, schema: { ...meta, response: { 200: userResponseSchema, ...errors } } },
    async (request) => users.getUser(deps, requireUser(request).id),
  );

  app.put(
    '/api/user',
    {
      ...secured,
      schema: {
        ...meta,
        body: updateUserRequestSchema,
        response: { 200: updateUserResponseSchema, 409: errorResponseSchema, ...limited },
      },
    },
    async (request) => users.updateUser(deps, session(request), request.body),
  );

  app.post(
    '/api/change_password',
    {
      ...secured,
      schema: {
        ...meta,
        body: changePasswordRequestSchema,
        response: { 200: successResponseSchema, ...limited },
      },
    },
    async (request) => users.changePassword(deps, session(request), request.body),
  );

  app.get('/api/data-portability', { ...secured, schema: meta }, async (request, reply) => {
    const csv = await users.exportUserData(deps, requireUser(request).id);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="user_data.csv"')
      .send(csv);
  });

  app.delete(
    '/api/delete_account',
    {
      ...secured,
      schema: {
        ...meta,
        body: deleteAccountRequestSchema,
        response: { 200: successResponseSchema, ...limited },
      },
    },
    async (request) => {
      const who = session(request);
      await users.checkCurrentPassword(deps, who, request.body.current_password);
      return users.deleteAccount(deps, who.userId);
    },
  );
}
