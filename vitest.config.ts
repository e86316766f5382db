import { defineConfig } from 'vitest/config';

// One run over every package; each project carries its own environment and includes. The globs pick up a
// package's vitest.config.ts as soon as it has one (no list to keep in step), and match nothing without one.
export default defineConfig({
  test: {
    projects: ['{packages,remotes,tooling}/*/vitest.config.ts', '{server,shell}/vitest.config.ts'],
  },
});
