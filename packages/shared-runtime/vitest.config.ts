import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'shared-runtime',
    // One module graph per worker, not one per file (see the root vitest.config.ts: these files keep no state
    // between them)
    isolate: false,
    environment: 'happy-dom',
    // Its *.server.test files run against the real server and wait for the state they need; the limits are only a
    // backstop, and on a loaded machine (the CI's 2 cores at a load of 10) a sign-up alone can take seconds
    testTimeout: 30_000,
    hookTimeout: 60_000,
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    setupFiles: ['./src/test/setup.ts'],
  },
});
