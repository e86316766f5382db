import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'exchange-sim',
    environment: 'node',
    include: ['src/**/*.test.ts'],
  },
});
