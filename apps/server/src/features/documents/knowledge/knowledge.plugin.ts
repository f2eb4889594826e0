import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { embedderFromConfig } from '../retrieval/embeddings';
import { SearchIndexer } from './indexer';
import { VectorIndexer } from './vector-indexer';

declare module 'fastify' {
  interface FastifyInstance {
    /** The search index's writer (features/documents/knowledge): files routes tell it of new files. */
    knowledge: SearchIndexer;
    /** With AI_EMBEDDINGS_MODEL: the writer of the passages' vectors. */
    knowledgeVectors?: VectorIndexer;
  }
}

/**
 * The search index kept in step with the files by every app server: new files at once, the
 * others (after an upgrade, a restart) by the indexer's sweep, from when the server is ready.
 * With an embeddings model, each indexed file's passages then get their vectors.
 */
async function knowledgePlugin(app: FastifyInstance) {
  const embedder = embedderFromConfig(app.config);
  const vectors =
    embedder &&
    new VectorIndexer({ db: app.db, dialect: app.dialect, ai: app.ai, embedder }, app.log);
  const indexer = new SearchIndexer(
    { db: app.db, dialect: app.dialect, storage: app.storage },
    app.log,
    () => vectors?.poke(),
  );
  app.decorate('knowledge', indexer);
  if (vectors) app.decorate('knowledgeVectors', vectors);
  app.addHook('onReady', async () => {
    indexer.start();
    vectors?.start();
  });
  app.addHook('onClose', async () => {
    await indexer.stop();
    await vectors?.stop();
  });
}

export default fp(knowledgePlugin, { name: 'knowledge', dependencies: ['ai'] });
