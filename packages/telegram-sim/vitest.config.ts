import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'telegram-sim',
    // One module graph per worker, not one per file (see the root vitest.config.ts: these files keep no state
    // between them)
    isolate: false,
    environment: 'node',
    include: ['src/**/*.test.ts'],
  },
});
