import { beforeAll, describe, expect, it } from 'vitest';
import { lintInScratch, numbered } from './scratch-lint';

/** Where a probe file sits (relative to the repository root) and the one module it imports */
type Probe = readonly [path: string, specifier: string];

const forbidden: readonly (readonly [...Probe, message: string])[] = [
  ['packages/contracts/src/probe.ts', '@kestrel/engine', 'packages/contracts imports no workspace package'],
  ['packages/ui/src/probe.tsx', '@kestrel/shared-runtime', 'packages/ui imports no workspace package'],
  ['packages/exchange-sim/src/probe.ts', '@kestrel/contracts', 'packages/exchange-sim imports no workspace'],
  ['packages/telegram-sim/src/probe.ts', '@kestrel/contracts', 'packages/telegram-sim imports no workspace'],
  ['packages/engine/src/probe.ts', '@kestrel/server', 'packages/engine imports only @kestrel/contracts'],
  [
    'packages/shared-runtime/src/probe.ts',
    '@kestrel/server/testing',
    'packages/shared-runtime may import only',
  ],
  ['packages/shared-runtime/src/probe.test.ts', '@kestrel/server', 'packages/shared-runtime may import only'],
  [
    'remotes/dashboard/src/probe.tsx',
    '@kestrel/remote-bots',
    'Remotes and the shell never import each other',
  ],
  ['remotes/dashboard/src/probe.tsx', '@kestrel/engine', 'A remote may import only'],
  ['remotes/account/src/probe.tsx', '@kestrel/server', 'A remote may import only'],
  ['remotes/account/src/probe.test.tsx', '@kestrel/server', 'A remote may import only'],
  ['remotes/bots/src/probe.tsx', '@kestrel/server/testing', 'A remote may import only'],
  ['shell/src/probe.tsx', '@kestrel/engine', 'The shell may import only'],
  ['server/src/probe.ts', '@kestrel/exchange-sim', 'The server may import only'],
  ['server/src/core/notifications/probe.ts', '@kestrel/telegram-sim', 'The server may import only'],
  ['server/src/probe.ts', '@kestrel/shared-runtime', 'The server may import only'],
  // The server's floors (server/CONTEXT.md): lib < core < trading < views < routes; the composition root on top
  ['server/src/lib/probe.ts', '../core/auth/auth-service', 'server/src/lib is the basement'],
  ['server/src/core/auth/probe.ts', '../../trading/bots/bot-service', 'server/src/core may not import'],
  ['server/src/core/auth/probe.ts', '../../views/dashboard', 'server/src/core may not import'],
  ['server/src/core/auth/probe.ts', '../../app', 'server/src/core may not import'],
  [
    'server/src/trading/bots/probe.ts',
    '../../views/dashboard/dashboard-figures',
    'server/src/trading may not',
  ],
  ['server/src/trading/bots/probe.ts', '../../routes/step-up', 'server/src/trading may not'],
  ['server/src/views/history/probe.ts', '../../routes/route-schemas', 'server/src/views may not import'],
  ['server/src/core/auth/probe.ts', '@kestrel/exchange-sim', 'The server may import only'],
  // The folder rules keep the repository-wide ones: deep imports and the direct router import
  [
    'packages/engine/src/probe.ts',
    '@kestrel/contracts/src/market/market',
    'Import a workspace package by its name',
  ],
  ['remotes/bots/src/probe.tsx', 'react-router-dom', "Import routing from '@kestrel/shared-runtime/router'"],
];

const allowed: readonly Probe[] = [
  ['packages/contracts/src/probe.ts', 'zod'],
  ['packages/engine/src/probe.ts', '@kestrel/contracts'],
  ['packages/shared-runtime/src/probe.ts', '@kestrel/ui/dialog'],
  ['packages/shared-runtime/src/probe.test.ts', '@kestrel/server/testing'],
  ['remotes/bots/src/probe.tsx', '@kestrel/engine'],
  ['remotes/account/src/probe.tsx', '@kestrel/shared-runtime/react'],
  ['remotes/exchange-connect/src/test/probe.server.test.tsx', '@kestrel/server/testing'],
  ['shell/src/probe.tsx', '@kestrel/shared-runtime/router'],
  ['server/src/probe.ts', '@kestrel/engine'],
  ['server/src/testing/probe.ts', '@kestrel/exchange-sim'],
  ['server/src/lib/database/probe.ts', '../clock'],
  ['server/src/core/auth/probe.ts', '../../lib/clock'],
  ['server/src/core/auth/probe.ts', '../account/account-audit'],
  ['server/src/trading/bots/probe.ts', '../../core/exchange/exchange-adapter'],
  ['server/src/trading/bots/probe.ts', '../orders/order-manager'],
  ['server/src/views/dashboard/probe.ts', '../../trading/bots/bot-repository'],
  ['server/src/routes/api/probe.ts', '../../views/dashboard/dashboard-service'],
  ['server/src/app-probe.ts', './trading/bots'],
  ['server/test/probe.test.ts', '@kestrel/exchange-sim'],
  ['server/test/probe.test.ts', '@kestrel/telegram-sim'],
  ['bench/src/probe.ts', '@kestrel/server'],
];

/** noRestrictedImports messages per file of the scratch copy */
const found = new Map<string, string[]>();
/** Each probe gets a file of its own (one import per file), numbered in the order of the two tables */
const probes: readonly Probe[] = [
  ...forbidden.map(([path, specifier]) => [path, specifier] as const),
  ...allowed,
];
const fileOf = (i: number) => numbered((probes[i] as Probe)[0], i);
const messagesFor = (i: number) => found.get(fileOf(i)) ?? [];

beforeAll(async () => {
  const diagnostics = await lintInScratch(
    'kestrel-lint-rules-',
    probes.map(([, specifier], i) => [
      fileOf(i),
      `import { thing } from '${specifier}';\n\nexport const used = thing;\n`,
    ]),
  );
  for (const d of diagnostics.filter((d) => d.category === 'lint/style/noRestrictedImports')) {
    found.set(d.location.path, [...(found.get(d.location.path) ?? []), d.message]);
  }
}, 60_000);

describe('biome.json enforces the import table of ../shared/ARCHITECTURE.md', () => {
  it.each(forbidden.map(([path, specifier, message], i) => [path, specifier, message, i] as const))(
    '%s may not import %s',
    (_path, _specifier, message, i) => {
      expect(messagesFor(i)).toContainEqual(expect.stringContaining(message));
    },
  );

  it.each(allowed.map(([path, specifier], i) => [path, specifier, forbidden.length + i] as const))(
    '%s may import %s',
    (_path, _specifier, i) => {
      expect(messagesFor(i)).toEqual([]);
    },
  );
});
