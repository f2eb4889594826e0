import type { FastifyInstance } from 'fastify';
import { accountCleanup } from '../account-cleanup';
import { adminRoutes } from './admin';
import { aiRoutes } from './ai';
import { alertsRoutes } from './alerts';
import { backupLeftoversRoutes } from './backup';
import { analysisRoutes, siteAnalysisRoutes } from './analysis';
import { chatRoutes, LiveReplies } from './chat';
import { dictionaryRoutes } from './dictionary';
import { documentsRoutes, knowledgePlugin, knowledgeRoutes } from './documents';
import { filesRoutes } from './files';
import { authRoutes } from './auth';
import { captchaRoutes } from './captcha';
import { contactRoutes } from './contact';
import { crawlersRoutes } from './crawlers';
import { healthRoutes } from './health';
import { jobsRoutes } from './jobs';
import { logsRoutes } from './logs';
import { regionRoutes } from './region';
import { usersRoutes } from './users';

/** Every feature's routes, one line each. */
export async function registerFeatures(app: FastifyInstance) {
  // The chat replies this process generates: deleting an account (the user's own, or from the
  // Admin page) stops the user's here at once; other processes' stop at their next save.
  const replies = new LiveReplies();
  const cleanup = { accountCleanup: accountCleanup(app, replies) };
  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(usersRoutes, cleanup);
  await app.register(adminRoutes, cleanup);
  await app.register(alertsRoutes);
  await app.register(logsRoutes);
  await app.register(captchaRoutes);
  await app.register(contactRoutes);
  await app.register(regionRoutes);
  await app.register(crawlersRoutes);
  // Before the files' routes: an upload is indexed at once (documents/knowledge).
  await app.register(knowledgePlugin);
  await app.register(filesRoutes);
  await app.register(knowledgeRoutes);
  await app.register(backupLeftoversRoutes);
  await app.register(aiRoutes);
  await app.register(jobsRoutes);
  await app.register(chatRoutes, { replies });
  await app.register(dictionaryRoutes);
  await app.register(documentsRoutes);
  await app.register(analysisRoutes);
  await app.register(siteAnalysisRoutes);
}
