import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { captchaChallengeResponseSchema, clientConfigResponseSchema } from '@inkwell/contract';
import { newChallenge } from './captcha.service';

export const captchaDeps = (app: FastifyInstance) => ({
  db: app.db,
  secret: app.config.JWT_SECRET,
  provider: app.config.CAPTCHA,
  recaptchaSecret: app.config.RECAPTCHA_SECRET,
  recaptchaVerifyUrl: app.config.RECAPTCHA_VERIFY_URL,
});

export async function captchaRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/captcha/challenge',
    {
      config: { rateLimit: { max: 60, timeWindow: 60_000 } },
      schema: { tags: ['site'], response: { 200: captchaChallengeResponseSchema } },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return newChallenge(captchaDeps(app));
    },
  );

  /** What the web app needs to know about this deployment. */
  app.get(
    '/api/config',
    { schema: { tags: ['site'], response: { 200: clientConfigResponseSchema } } },
    async () => ({
      captcha: app.config.CAPTCHA,
      ...(app.config.RECAPTCHA_SITE_KEY ? { recaptchaSiteKey: app.config.RECAPTCHA_SITE_KEY } : {}),
      ...(app.config.ANALYTICS_SCRIPT_URL
        ? { analyticsScriptUrl: app.config.ANALYTICS_SCRIPT_URL }
        : {}),
      promptLimit: app.config.PROMPT_LIMIT,
    }),
  );
}
