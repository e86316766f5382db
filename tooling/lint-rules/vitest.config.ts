import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'lint-rules',
    environment: 'node',
    include: ['src/**/*.test.ts'],
  },
});
