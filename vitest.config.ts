import { defineConfig } from 'vitest/config';

// One run over every package; each project carries its own environment and includes
export default defineConfig({
  test: {
    projects: ['{packages,remotes}/*/vitest.config.ts', '{server,shell}/vitest.config.ts'],
  },
});
