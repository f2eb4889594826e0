// Zod's compiled parsers probe `new Function` once; under our CSP (no 'unsafe-eval') that probe is
// reported as a CSP violation (a Lighthouse best-practices failure), though the error is caught.
// Jitless skips the probe and the compiled fast path. Zod keeps its config on this global and keeps
// what it finds there; setting it here, before any schema is built (zod reads it when an object
// schema is made), spares the first chunk zod's core, which `config()` from 'zod' would pull in.
declare global {
  var __zod_globalConfig: { jitless?: boolean } | undefined;
}
globalThis.__zod_globalConfig = { ...globalThis.__zod_globalConfig, jitless: true };

export {};
