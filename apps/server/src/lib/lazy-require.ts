import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A CommonJS library loaded at its first use, then kept: for the heavy ones (jsdom, axe-core)
 * that most processes never need and that take a second to load. Synchronous, as they are used
 * inside synchronous code (a page's DOM built in an audit).
 */
export function lazyRequire<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(id) as T);
}
