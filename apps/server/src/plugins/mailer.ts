import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import { createMailer, type Mailer } from '../features/mail';

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

async function mailerPlugin(app: FastifyInstance) {
  app.decorate(
    'mailer',
    createMailer({
      smtpUrl: app.config.SMTP_URL,
      from: app.config.MAIL_FROM,
      outboxDir: path.join(app.config.dataDir, 'outbox'),
      log: app.log as unknown as Logger,
    }),
  );
}

export default fp(mailerPlugin, { name: 'mailer' });
