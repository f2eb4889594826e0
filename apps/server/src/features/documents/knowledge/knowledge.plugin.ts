import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SearchIndexer } from './indexer';

declare module 'fastify' {
  interface FastifyInstance {
    /** The search index's writer (features/documents/knowledge): files routes tell it of new files. */
    knowledge: SearchIndexer;
  }
}

/**
 * The search index kept in step with the files by every app server: new files at once, the
 * others (after an upgrade, a restart) by the indexer's sweep, from when the server is ready.
 */
async function knowledgePlugin(app: FastifyInstance) {
  const indexer = new SearchIndexer(
    { db: app.db, dialect: app.dialect, storage: app.storage },
    app.log,
  );
  app.decorate('knowledge', indexer);
  app.addHook('onReady', async () => indexer.start());
  app.addHook('onClose', async () => indexer.stop());
}

export default fp(knowledgePlugin, { name: 'knowledge' });
