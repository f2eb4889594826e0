import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Settings } from '../config';

/**
 * The port the server really listens on, kept beside its database: an operator may start it with
 * `PORT=8091 npm start` and run `npm run users -- invite` in another shell without PORT, and the
 * link must still point at the running server.
 */
const FILE = 'server-port';

export function recordServerPort(dataDir: string, port: number): void {
  try {
    writeFileSync(path.join(dataDir, FILE), `${port}\n`);
  } catch {
    // Only a convenience for the commands' links: a read-only data directory is not a fault.
  }
}

/**
 * The settings a command prints links with: PUBLIC_URL wins, then a PORT the command was given,
 * then the port the server last recorded, then the default.
 */
export function withServerPort(config: Settings, env: NodeJS.ProcessEnv): Settings {
  if (config.PUBLIC_URL || env.PORT?.trim()) return config;
  try {
    const port = Number(readFileSync(path.join(config.dataDir, FILE), 'utf8').trim());
    return Number.isInteger(port) && port > 0 ? { ...config, PORT: port } : config;
  } catch {
    return config;
  }
}
