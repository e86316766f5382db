import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import contracts from './packages/contracts/vitest.config';
import engine from './packages/engine/vitest.config';
import exchangeSim from './packages/exchange-sim/vitest.config';
import sharedRuntime from './packages/shared-runtime/vitest.config';
import telegramSim from './packages/telegram-sim/vitest.config';
import ui from './packages/ui/vitest.config';
import account from './remotes/account/vitest.config';
import bots from './remotes/bots/vitest.config';
import dashboard from './remotes/dashboard/vitest.config';
import exchangeConnect from './remotes/exchange-connect/vitest.config';
import server from './server/vitest.config';
import shell from './shell/vitest.config';
import federation from './tooling/federation/vitest.config';

/**
 * The inner loop (`pnpm test:fast`): the unit tests, each package's own configuration, less what waits on the
 * outside world: no child process (the simulators' CLIs, Biome in the lint-rules probes, the server's process
 * tests), no database (the server's integration tests in server/test and their migrated PGlite cluster), and no
 * test that starts the real server (`*.server.test.*` and the browser-package tests importing
 * `@kestrel/server/testing`). The in-process simulator tests of the exchange adapter stay: sockets on loopback, in
 * this process. `pnpm test:unit` still runs everything
 */
const withoutServer = [
  '**/*.server.test.{ts,tsx}',
  // Start the real server through @kestrel/server/testing
  'src/auth/session.test.ts',
  'src/fallback/browser-signing.test.ts',
  'src/api/api-client.test.ts',
  'src/test/runtime.test.ts',
  'src/state/exchange-state.test.ts',
];

function fast(
  root: string,
  project: { test?: object },
  exclude: readonly string[] = [],
  override: object = {},
): TestProjectInlineConfiguration {
  return {
    ...project,
    test: { ...project.test, root, exclude: [...configDefaults.exclude, ...exclude], ...override },
  } as TestProjectInlineConfiguration;
}

export default defineConfig({
  test: {
    projects: [
      fast('packages/contracts', contracts),
      fast('packages/engine', engine),
      // cli.test.ts spawns the simulator's CLI
      fast('packages/exchange-sim', exchangeSim, ['src/cli.test.ts']),
      fast('packages/telegram-sim', telegramSim, ['src/cli.test.ts']),
      fast('packages/ui', ui),
      fast('packages/shared-runtime', sharedRuntime, withoutServer),
      fast('remotes/account', account, withoutServer),
      fast('remotes/bots', bots, withoutServer),
      fast('remotes/dashboard', dashboard, withoutServer),
      fast('remotes/exchange-connect', exchangeConnect, withoutServer),
      fast('shell', shell, withoutServer),
      fast('tooling/federation', federation),
      // server/src's unit tests without the database, and the two of server/test that need neither it nor a server
      fast(
        'server',
        server,
        ['src/testing/test-server.test.ts', 'src/core/market-data/kline-repository.test.ts'],
        {
          include: ['src/**/*.test.ts', 'test/agent-guard.test.ts', 'test/import-cycles.test.ts'],
          globalSetup: [],
        },
      ),
    ],
    maxWorkers: Number(process.env.KESTREL_TEST_WORKERS) || Math.max(2, availableParallelism() - 1),
  },
});
