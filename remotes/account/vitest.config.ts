import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'account',
    // One module graph per worker, not one per file (see the root vitest.config.ts: these files keep no state
    // between them)
    isolate: false,
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    // Tailwind stylesheets are compiled by the build; unit tests exercise behaviour only
    css: false,
    setupFiles: ['./src/test/setup.ts'],
  },
});
