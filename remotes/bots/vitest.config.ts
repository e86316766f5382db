import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'bots',
    environment: 'happy-dom',
    // Its *.server.test files run against the real server and wait for the state they need; the limits are only a
    // backstop, and on a loaded machine (the CI's 2 cores at a load of 10) a sign-up alone can take seconds
    testTimeout: 30_000,
    hookTimeout: 60_000,
    include: ['src/**/*.test.{ts,tsx}'],
    // Tailwind stylesheets are compiled by the build; unit tests exercise behaviour only
    css: false,
    setupFiles: ['./src/test/setup.ts'],
  },
});
