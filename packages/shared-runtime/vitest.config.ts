import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'shared-runtime',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    setupFiles: ['./src/test/setup.ts'],
  },
});
