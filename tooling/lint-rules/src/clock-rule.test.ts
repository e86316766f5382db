import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');
const biome = createRequire(join(root, 'package.json')).resolve('@biomejs/biome/bin/biome');
const PLUGIN = 'tooling/lint-rules/grit/no-wall-clock.grit';

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

interface Diagnostic {
  category: string;
  message: string;
  location: { path: string };
}

let dir: string;
const found = new Map<string, string[]>();
const probes: readonly Probe[] = [...forbidden.map(([path, source]) => [path, source] as const), ...allowed];
const fileOf = (i: number) => (probes[i] as Probe)[0].replace(/probe(\.[a-z.]+)$/, `probe-${i}$1`);
const fileFor = (i: number) => (/probe/.test((probes[i] as Probe)[0]) ? fileOf(i) : (probes[i] as Probe)[0]);
const rulesFor = (i: number) => found.get(fileFor(i)) ?? [];

// As in import-table.test.ts: files in a scratch folder laid out like the repository, linted with copies of the
// real biome.json and its plugin
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kestrel-clock-rule-'));
  await copyFile(join(root, 'biome.json'), join(dir, 'biome.json'));
  await mkdir(dirname(join(dir, PLUGIN)), { recursive: true });
  await copyFile(join(root, PLUGIN), join(dir, PLUGIN));
  for (const [i, [, source]] of probes.entries()) {
    const file = join(dir, fileFor(i));
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, `${source}\n`);
  }
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [biome, 'lint', '--vcs-enabled=false', '--reporter=json', '--max-diagnostics=none', '.'],
    { cwd: dir },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  const diagnostics = (JSON.parse(stdout) as { diagnostics: Diagnostic[] }).diagnostics;
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
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

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
