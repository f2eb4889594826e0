import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { PROJECT_ROOT } from '../../environment';
import { removeLeftovers } from './backup-leftovers';

/**
 * No routes: at start, the server removes what a killed `npm run backup` left (a staging folder of
 * hard links to every stored file, deleted accounts' included; a partial archive in the default
 * backups folder). A backup still running is left alone (backup-leftovers.ts).
 */
export async function backupLeftoversRoutes(app: FastifyInstance) {
  app.addHook('onReady', async () => {
    try {
      const removed = await removeLeftovers(app.config.dataDir, path.join(PROJECT_ROOT, 'backups'));
      if (removed.length > 0)
        app.log.warn({ removed }, 'backup: removed what a killed backup left');
    } catch (err) {
      app.log.error({ err }, 'backup: could not look for what a killed backup left');
    }
  });
}
