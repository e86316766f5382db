import { beforeAll, describe, expect, it } from 'vitest';
import { lintInScratch, numbered } from './scratch-lint';

/** Where a probe file sits (relative to the repository root) and its one statement */
type Probe = readonly [path: string, source: string];

/** The clock owns timers (server/src/lib/clock.ts): a raw timer or a wall-clock read in the server is refused */
const forbidden: readonly (readonly [...Probe, rule: 'timer' | 'wall clock'])[] = [
  ['server/src/core/auth/probe.ts', 'export const t = setTimeout(() => {}, 1);', 'timer'],
  ['server/src/trading/bots/probe.ts', 'export const t = setInterval(() => {}, 1);', 'timer'],
  ['server/src/trading/orders/probe.ts', 'export const t = setTimeout(() => {}, 1);', 'timer'],
  ['server/src/core/live/probe.ts', 'export const t = (h: number) => clearTimeout(h);', 'timer'],
  ['server/src/views/history/probe.ts', 'export const t = setImmediate(() => {});', 'timer'],
  ['server/src/core/socket/probe.ts', 'export const now = Date.now();', 'wall clock'],
  ['server/src/routes/ws/probe.ts', 'export const now: () => number = Date.now;', 'wall clock'],
  ['server/src/lib/database/probe.ts', 'export const now = new Date();', 'wall clock'],
];

const allowed: readonly Probe[] = [
  // The clock itself is where Node's timers and the wall clock are read
  ['server/src/lib/clock.ts', 'export const t = setTimeout(() => Date.now(), 1);'],
  ['server/test/probe.test.ts', 'export const t = setTimeout(() => Date.now(), 1);'],
  ['server/src/core/auth/probe.test.ts', 'export const now = new Date();'],
  // A given time is not a reading of the clock
  ['server/src/core/auth/probe.ts', 'export const at = new Date(0);'],
  ['packages/engine/src/probe.ts', 'export const t = setTimeout(() => {}, 1);'],
];

const found = new Map<string, string[]>();
const probes: readonly Probe[] = [...forbidden.map(([path, source]) => [path, source] as const), ...allowed];
const fileFor = (i: number) => {
  const path = (probes[i] as Probe)[0];
  return /probe/.test(path) ? numbered(path, i) : path;
};
const rulesFor = (i: number) => found.get(fileFor(i)) ?? [];

// As in import-table.test.ts: files in a scratch folder laid out like the repository, linted with copies of the
// real biome.json and its plugin
beforeAll(async () => {
  const diagnostics = await lintInScratch(
    'kestrel-clock-rule-',
    probes.map(([, source], i) => [fileFor(i), `${source}\n`]),
  );
  for (const d of diagnostics) {
    const rule =
      d.category === 'lint/style/noRestrictedGlobals'
        ? 'timer'
        : d.category === 'plugin' && d.message.includes('injected Clock')
          ? 'wall clock'
          : undefined;
    if (rule) found.set(d.location.path, [...(found.get(d.location.path) ?? []), rule]);
  }
}, 60_000);

describe('biome.json: the clock owns the server’s timers and time', () => {
  it.each(forbidden.map(([path, source, rule], i) => [path, source, rule, i] as const))(
    '%s may not say `%s`',
    (_path, _source, rule, i) => {
      expect(rulesFor(i)).toContain(rule);
    },
  );

  it.each(allowed.map(([path, source], i) => [path, source, forbidden.length + i] as const))(
    '%s may say `%s`',
    (_path, _source, i) => {
      expect(rulesFor(i)).toEqual([]);
    },
  );
});
