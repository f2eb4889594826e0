import { defineConfig } from 'vitest/config';

// One runner for every test: each workspace is a project, so one run prints one summary.
export default defineConfig({
  test: {
    projects: ['packages/contract', 'apps/server', 'apps/web', 'apps/web/e2e'],
  },
});
