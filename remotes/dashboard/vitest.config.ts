import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'dashboard',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    // Tailwind stylesheets are compiled by the build; unit tests exercise behaviour only
    css: false,
    setupFiles: ['./src/test/setup.ts'],
  },
});
