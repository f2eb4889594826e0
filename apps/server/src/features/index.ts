import type { FastifyInstance } from 'fastify';
import { adminRoutes } from './admin/admin.routes';
import { aiRoutes } from './ai/ai.routes';
import { alertsRoutes } from './alerts/alerts.routes';
import { analysisRoutes } from './analysis/analysis.routes';
import { siteAnalysisRoutes } from './analysis/site/site-analysis.routes';
import { chatRoutes } from './chat/chat.routes';
import { documentsRoutes } from './documents/documents.routes';
import { filesRoutes } from './files/files.routes';
import { authRoutes } from './auth/auth.routes';
import { captchaRoutes } from './captcha/captcha.routes';
import { contactRoutes } from './contact/contact.routes';
import { crawlersRoutes } from './crawlers/crawlers.routes';
import { healthRoutes } from './health/health.routes';
import { jobsRoutes } from './jobs/jobs.routes';
import { logsRoutes } from './logs/logs.routes';
import { regionRoutes } from './region/region.routes';
import { usersRoutes } from './users/users.routes';

/** Every feature's routes, one line each. */
export async function registerFeatures(app: FastifyInstance) {
  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(usersRoutes);
  await app.register(adminRoutes);
  await app.register(alertsRoutes);
  await app.register(logsRoutes);
  await app.register(captchaRoutes);
  await app.register(contactRoutes);
  await app.register(regionRoutes);
  await app.register(crawlersRoutes);
  await app.register(filesRoutes);
  await app.register(aiRoutes);
  await app.register(jobsRoutes);
  await app.register(chatRoutes);
  await app.register(documentsRoutes);
  await app.register(analysisRoutes);
  await app.register(siteAnalysisRoutes);
}
