import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  contactRequestSchema,
  errorResponseSchema,
  messageResponseSchema,
} from '@inkwell/contract';
import { badRequest } from '../../lib/http-error';
import { nowIso } from '../../lib/time';
import { captchaDeps, verifyCaptcha } from '../captcha';

export const NOT_A_ROBOT = 'Please verify that you are not a robot.';

export async function contactRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/api/contact',
    {
      config: { rateLimit: app.authRateLimit },
      schema: {
        tags: ['site'],
        body: contactRequestSchema,
        response: {
          200: messageResponseSchema,
          400: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
    },
    async (request) => {
      const { name, email, message, recaptchaToken } = request.body;
      if (!(await verifyCaptcha(captchaDeps(app), recaptchaToken, request.ip)))
        throw badRequest(NOT_A_ROBOT);
      await app.db
        .insertInto('contact_messages')
        .values({ name, email, message, created_at: nowIso() })
        .execute();
      if (app.config.CONTACT_TO) {
        // The message is stored first, so a mail failure never loses it.
        await app.mailer
          .send({
            to: app.config.CONTACT_TO,
            replyTo: email,
            subject: `Inkwell contact form: ${name}`,
            text: `From: ${name} <${email}>\n\n${message}\n`,
          })
          .catch((err: unknown) => request.log.error({ err }, 'contact mail failed'));
      }
      return { message: 'Thank you for contacting us. We will get back to you soon.' };
    },
  );
}
