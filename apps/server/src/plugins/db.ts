import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { openDatabase, type Db, type Dialect } from '../db/database';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    dialect: Dialect;
  }
}

export interface DbPluginOptions {
  /** PostgreSQL schema to isolate in (tests). */
  pgSchema?: string;
}

async function dbPlugin(app: FastifyInstance, opts: DbPluginOptions) {
  const handle = await openDatabase({
    databaseUrl: app.config.DATABASE_URL,
    dataDir: app.config.dataDir,
    pgSchema: opts.pgSchema,
    onIdleConnectionError: (err) =>
      app.log.warn({ err }, 'database: an idle connection failed; a new one is opened when needed'),
  });
  app.decorate('db', handle.db);
  app.decorate('dialect', handle.dialect);
  app.addHook('onClose', () => handle.close());
}

export default fp(dbPlugin, { name: 'db' });
