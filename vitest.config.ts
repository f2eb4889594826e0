import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One runner for every test: each workspace is a project, so one run prints one summary.
export default defineConfig({
  test: {
    projects: ['packages/contract', 'apps/server', 'apps/web', 'apps/web/e2e'],
    // Most unit and API tests wait on sockets, disks and databases: two workers keep two cores
    // busy. Vitest's default (cores − 1) ran them one file at a time on a 2-core CI machine,
    // two minutes longer. The browser suite runs beside them in a pool of its own
    // (apps/web/e2e/vitest.config.ts), as many files at a time as poolOptions.threads allows.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The browser files (the only ones in the threads pool) one per two cores: each holds a server
    // and a browser that, with the unit tests beside them, kept a 2-core machine so busy that
    // tests elsewhere ran out of time (the clean-clone runs of 2026-11-29, the landed main's too).
    poolOptions: {
      threads: { maxThreads: Math.max(1, Math.floor(availableParallelism() / 2)), minThreads: 1 },
    },
  },
});
