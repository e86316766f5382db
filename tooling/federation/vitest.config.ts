import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'federation',
    environment: 'node',
    include: ['src/**/*.test.ts'],
  },
});
