import { buildApp } from './app';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from './config';
import { PROJECT_ROOT } from './environment';
import { guardProcess } from './lib/process-guards';
import { recordServerPort } from './lib/server-port';
import { warmWorkerPools } from './job-runtime';

/** Starts the product: reads the configuration, listens, and shuts down gracefully on signals. */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  warnOfOldDataDir(config.dataDir);
  const app = await buildApp(config);
  guardProcess(app);
  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      app.log.info({ signal }, 'shutting down');
      const force = setTimeout(() => process.exit(1), 10_000);
      force.unref();
      app.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
  await app.listen({ port: config.PORT, host: config.HOST });
  const port = (app.server.address() as { port: number }).port;
  recordServerPort(config.dataDir, port);
  warmWorkerPools();
  const shownHost = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  console.log(`\n  Inkwell is running at http://${shownHost}:${port}${config.BASE_PATH}\n`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

/**
 * Before DATA_DIR was read from the project root, `npm start` (which runs in apps/server) kept a
 * relative ./data there: point an operator who upgrades at it rather than starting empty.
 */
function warnOfOldDataDir(dataDir: string) {
  const old = path.join(PROJECT_ROOT, 'apps/server/data');
  if (
    old !== dataDir &&
    existsSync(path.join(old, 'inkwell.db')) &&
    !existsSync(path.join(dataDir, 'inkwell.db'))
  )
    console.warn(
      `\n  A database from an earlier version is in ${old}; this server uses ${dataDir}.` +
        `\n  Stop the server and move it there (mv ${old}/* ${dataDir}/), or set DATA_DIR=${old}.\n`,
    );
}
