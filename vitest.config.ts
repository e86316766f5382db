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
    // Each project says whether its files get a fresh module graph each (Vitest's default, `isolate: true`). The
    // packages, tooling and the account and dashboard remotes set `isolate: false`: their files mock no module and restore fake
    // timers, stubs and spies after each test, so re-importing the graph for every file bought nothing and cost most
    // of their time (measured on the 2-core machine, loaded: contracts 17 s → 2 s, engine 70 → 35, exchange-sim
    // 57 → 25, ui 35 → 7, shared-runtime 356 → 97, dashboard 165 → 58). The server (its files build apps, start processes and hold
    // module-level registries), the shell and the bots remote (a test there leaks into the next file when shared)
    // stay isolated. A file that needs its own graph moves to an isolated project, or its project goes back to true.
  },
});
