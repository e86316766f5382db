import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'shared-runtime',
    // One module graph per worker, not one per file (see the root vitest.config.ts: these files keep no state
    // between them)
    isolate: false,
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    setupFiles: ['./src/test/setup.ts'],
  },
});
