import { defineProject } from 'vitest/config';

// Browser scenarios: real server (production build, non-root BASE_PATH) + Debian's headless Chromium.
export default defineProject({
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['**/*.e2e.ts'],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    // expect.poll waits for a state (a screen drawn, a message shown); its 1 s default is a wait
    // on time that a loaded 2-core machine misses (the sign-in page over a host name drew after
    // it once). The test's own timeout still bounds it.
    expect: { poll: { timeout: 20_000 } },
    // Each file starts a server and a browser, and mostly waits on them (about a quarter of a
    // core alone). A pool of their own (threads, where the other projects use forks) runs them
    // beside the other projects instead of after them.
    pool: 'threads',
  },
});
