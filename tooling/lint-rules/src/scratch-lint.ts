import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const root = join(import.meta.dirname, '../../..');
// The workspace's own Biome, as `pnpm lint` runs it
const biome = createRequire(join(root, 'package.json')).resolve('@biomejs/biome/bin/biome');
/** The plugin biome.json names (the clock rule, clock-rule.test.ts): Biome refuses to lint without it */
const PLUGIN = 'tooling/lint-rules/grit/no-wall-clock.grit';

export interface Diagnostic {
  category: string;
  message: string;
  location: { path: string };
}

/** A probe's file name with its number in it, so probes at the same path get files of their own */
export const numbered = (path: string, i: number) => path.replace(/probe(\.[a-z.]+)$/, `probe-${i}$1`);

/**
 * Lints `files` (path relative to the repository root, source) with copies of the real biome.json and its plugin,
 * in a scratch folder laid out like the repository, and answers every diagnostic. Biome prints no diagnostics for
 * stdin input (by design), so the probes are real files.
 */
export async function lintInScratch(
  prefix: string,
  files: readonly (readonly [path: string, source: string])[],
): Promise<Diagnostic[]> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  try {
    await copyFile(join(root, 'biome.json'), join(dir, 'biome.json'));
    await mkdir(dirname(join(dir, PLUGIN)), { recursive: true });
    await copyFile(join(root, PLUGIN), join(dir, PLUGIN));
    for (const [path, source] of files) {
      const file = join(dir, path);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, source);
    }
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [biome, 'lint', '--vcs-enabled=false', '--reporter=json', '--max-diagnostics=none', '.'],
      { cwd: dir },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' })); // exit code 1 when anything is flagged
    return (JSON.parse(stdout) as { diagnostics: Diagnostic[] }).diagnostics;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
