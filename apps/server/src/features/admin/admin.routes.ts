import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  adminContactMessagesResponseSchema,
  adminModelRetryResponseSchema,
  adminOverviewResponseSchema,
  adminUserIdParamsSchema,
  adminUserSchema,
  adminUsersResponseSchema,
  errorResponseSchema,
  inviteRequestSchema,
  inviteResponseSchema,
  latestAlertResponseSchema,
  setAlertRequestSchema,
  successResponseSchema,
} from '@inkwell/contract';
import { requireUser } from '../../plugins/auth';
import { contactMessages } from '../contact';
import { adminDeps } from './admin-deps';
import * as admin from './admin.service';
import { adminModelStatus } from './model-status';

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  404: errorResponseSchema,
};

/**
 * The Admin page's API, for operators only: anyone else signed in gets the 404 of an address that
 * does not exist (`requireOperator`); without a valid token, the 401 every protected route
 * answers, so the web app's refresh-and-retry keeps an operator's page working.
 */
export async function adminRoutes(
  fastify: FastifyInstance,
  opts: Pick<admin.AdminDeps, 'accountCleanup'>,
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps: admin.AdminDeps = {
    ...adminDeps(app.config, { db: app.db, storage: app.storage, mailer: app.mailer }),
    accountCleanup: opts.accountCleanup,
  };
  const operatorOnly = { onRequest: [app.authenticate, app.requireOperator] };
  const meta = { tags: ['admin'], security: [{ bearer: [] }] };
  const actor = (request: Parameters<typeof requireUser>[0]) => ({
    userId: requireUser(request).id,
  });

  app.get(
    '/api/admin/overview',
    {
      ...operatorOnly,
      schema: { ...meta, response: { 200: adminOverviewResponseSchema, ...errors } },
    },
    async () => admin.overview(deps, adminModelStatus(app.ai)),
  );

  /** "Retry now": a failed model download, or the check of an unreachable model server. */
  app.post(
    '/api/admin/model/retry',
    {
      ...operatorOnly,
      schema: { ...meta, response: { 200: adminModelRetryResponseSchema, ...errors } },
    },
    async (request) => {
      const retried = app.ai.retryNow?.() ?? false;
      if (retried) request.log.info('AI: the operator asked to retry the model now');
      // Lets the attempt begin, so the status answered is the attempt's.
      await nextTurn();
      return { retried, model: adminModelStatus(app.ai) };
    },
  );

  /** The contact form's messages: without CONTACT_TO, this is where an operator reads them. */
  app.get(
    '/api/admin/contact-messages',
    {
      ...operatorOnly,
      schema: { ...meta, response: { 200: adminContactMessagesResponseSchema, ...errors } },
    },
    async () => ({
      messages: await contactMessages(app.db),
      mailed_to: app.config.CONTACT_TO ?? null,
    }),
  );

  app.get(
    '/api/admin/users',
    {
      ...operatorOnly,
      schema: { ...meta, response: { 200: adminUsersResponseSchema, ...errors } },
    },
    async () => ({ users: await admin.listUsers(deps) }),
  );

  for (const [action, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const) {
    app.post(
      `/api/admin/users/:id/${action}`,
      {
        ...operatorOnly,
        schema: {
          ...meta,
          params: adminUserIdParamsSchema,
          response: { 200: adminUserSchema, ...errors },
        },
      },
      async (request) => admin.setDisabled(deps, actor(request), request.params.id, disabled),
    );
  }

  app.delete(
    '/api/admin/users/:id',
    {
      ...operatorOnly,
      schema: {
        ...meta,
        params: adminUserIdParamsSchema,
        response: { 200: successResponseSchema, ...errors },
      },
    },
    async (request) => admin.deleteUser(deps, actor(request), request.params.id),
  );

  app.post(
    '/api/admin/invitations',
    {
      ...operatorOnly,
      schema: {
        ...meta,
        body: inviteRequestSchema,
        response: { 201: inviteResponseSchema, 409: errorResponseSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await admin.invite(deps, actor(request), request.body.email, true)),
  );

  app.put(
    '/api/admin/alert',
    {
      ...operatorOnly,
      schema: {
        ...meta,
        body: setAlertRequestSchema,
        response: { 200: latestAlertResponseSchema, ...errors },
      },
    },
    async (request) => admin.setBanner(deps, request.body),
  );

  app.delete(
    '/api/admin/alert',
    {
      ...operatorOnly,
      schema: { ...meta, response: { 200: latestAlertResponseSchema, ...errors } },
    },
    async () => admin.clearBanner(deps),
  );
}
