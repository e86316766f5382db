import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Makes the migrated PGlite cluster every integration file starts from (see test/global-setup.ts)
    globalSetup: ['test/global-setup.ts'],
    // Opening an in-memory PGlite takes a few seconds on a busy 2-core machine
    hookTimeout: 60_000,
    testTimeout: 30_000,
  },
});
