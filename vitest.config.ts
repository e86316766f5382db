import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One run over every package; each project carries its own environment and includes. The globs pick up a
// package's vitest.config.ts as soon as it has one (no list to keep in step), and match nothing without one.
export default defineConfig({
  test: {
    projects: ['{packages,remotes,tooling}/*/vitest.config.ts', '{server,shell}/vitest.config.ts'],
    // Vitest's default is one worker less than the cores: ONE on the 2-core CI machine, so every file waited for
    // the one before it and a core sat idle while the server's files waited on sockets, child processes and the
    // wall clock (bots-processes alone waits ~80 s for a bar close and a lease). Two workers at least; more on
    // bigger machines as before. KESTREL_TEST_WORKERS overrides (1 to run the files one at a time again).
    maxWorkers: Number(process.env.KESTREL_TEST_WORKERS) || Math.max(2, availableParallelism() - 1),
  },
});
