import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';

/**
 * The repository (or the image's /app): where `.env` is read and what a relative DATA_DIR is
 * relative to, whatever directory a command runs in (`npm run users` runs in apps/server, the
 * image's CMD in /app; both must open the same database).
 */
export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../../..');

/** A setting that stops the start, with a message naming it. */
export class ConfigError extends Error {}

/** The `.env` read at start-up unless ENV_FILE names another. */
export const DEFAULT_ENV_FILE = path.join(PROJECT_ROOT, '.env');

/**
 * The environment the server, the worker and the CLIs run with: the `.env` file (ENV_FILE, or
 * `.env` at the project root; none is fine) under the real environment, which wins. An empty value
 * in the file (`PUBLIC_URL=`, as in .env.example) means the setting's default.
 */
export function readEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const named = env.ENV_FILE?.trim();
  const file = named ? path.resolve(PROJECT_ROOT, named) : DEFAULT_ENV_FILE;
  if (!existsSync(file)) {
    if (named) throw new ConfigError(`Invalid configuration:\n  ENV_FILE: ${file} does not exist`);
    return { ...env };
  }
  const fromFile = Object.fromEntries(
    Object.entries(parseEnv(readFileSync(file, 'utf8'))).filter(([, v]) => v?.trim()),
  );
  return { ...fromFile, ...env };
}
