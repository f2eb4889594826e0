import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits for a state; its 1 s default is a wait on time that a loaded 2-core
    // machine misses (a job not yet claimed, a heartbeat not yet written). The test's own
    // timeout still bounds it.
    expect: { poll: { timeout: 20_000 } },
  },
});
