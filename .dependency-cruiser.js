// The server's import rules, checked by `npm run lint` (and by apps/server/src/architecture.test.ts
// in `npm test`). A feature (apps/server/src/features/<name>/) is reached only through its faces:
// index.ts for everything, testing.ts (fixtures) for tests only, <name>.cpu.ts for the CPU task
// table only. Infrastructure imports no feature; no module circles; no cycle between features
// (.dependency-cruiser-features.js, which looks at the features alone).
const F = '^apps/server/src/features';
// Test code: test files, their helpers and fixtures, the server's test/ folder.
const TESTS = '([.]test[.]ts$|[.]test-helper[.]ts$|test-helpers[.]ts$|fixtures|^apps/server/test/)';
// A feature whose files may still be imported directly (none: every feature has its face). A
// name that matches no folder keeps the patterns below valid.
const NOT_YET_FACED = 'none';

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'feature-deep-import',
      comment:
        'A feature reaches another only through its index.ts (tests also through its testing.ts).',
      severity: 'error',
      from: { path: `${F}/([^/]+)/` },
      to: {
        path: `${F}/[^/]+/`,
        pathNot: [`${F}/($1|${NOT_YET_FACED})/`, `${F}/[^/]+/(index|testing)[.]ts$`],
      },
    },
    {
      name: 'deep-import-from-outside',
      comment:
        'Code outside the features reaches a feature only through its index.ts (tests also through ' +
        'testing.ts; src/cpu-tasks.ts through <feature>.cpu.ts, so worker threads load no routes).',
      severity: 'error',
      from: { path: '^apps/server/', pathNot: [`${F}/[^/]+/`, '^apps/server/src/cpu-tasks[.]ts$'] },
      to: {
        path: `${F}/[^/]+/`,
        pathNot: [`${F}/(${NOT_YET_FACED})/`, `${F}/[^/]+/(index|testing)[.]ts$`],
      },
    },
    {
      name: 'cpu-table-through-cpu-faces',
      comment: 'The CPU task table loads each feature through its <feature>.cpu.ts alone.',
      severity: 'error',
      from: { path: '^apps/server/src/cpu-tasks[.]ts$' },
      to: {
        path: `${F}/[^/]+/`,
        pathNot: [`${F}/(${NOT_YET_FACED})/`, `${F}/([^/]+)/[^/]+[.]cpu[.]ts$`],
      },
    },
    {
      name: 'testing-face-only-in-tests',
      comment: "A feature's testing.ts (fixtures, test servers) is for tests, never the product.",
      severity: 'error',
      from: { path: '^apps/server/', pathNot: TESTS },
      to: { path: `${F}/[^/]+/testing[.]ts$` },
    },
    {
      name: 'infrastructure-imports-no-feature',
      comment:
        'lib, db, storage and workers are below every feature; jobs and ai are infrastructure ' +
        'rooms too: jobs may use ai (the progress of model work), ai uses none. Features register ' +
        'with them in the composition root (src/job-kinds.ts, src/cpu-tasks.ts, ...).',
      severity: 'error',
      from: {
        path: '^apps/server/src/(lib|db|storage|workers|features/jobs|features/ai)/',
        pathNot: TESTS,
      },
      to: {
        path: `${F}/`,
        pathNot: [`${F}/ai/`, `${F}/jobs/`],
      },
    },
    {
      name: 'ai-imports-no-feature',
      severity: 'error',
      from: { path: `${F}/ai/`, pathNot: TESTS },
      to: { path: `${F}/jobs/` },
    },
    {
      name: 'no-circular',
      comment: 'Modules do not import each other round in a circle, in a room or across rooms.',
      severity: 'error',
      from: { path: '^apps/server/src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(node_modules|[.]mjs$)' },
    // `import type` counts: a cycle of types is a cycle of knowledge all the same.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
