/**
 * Runs the benchmarks: `pnpm bench` runs all, `pnpm bench <name> [<name>…]` runs the named ones.
 * Each benchmark is a file `src/<name>.bench.ts` whose default export is an async function that prints its own
 * figures, always beside a reference measured in the same run (ratios, not absolute timings, are the result).
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const available = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.slice(0, -'.bench.ts'.length))
  .sort();

const requested = process.argv.slice(2);
const unknown = requested.filter((name) => !available.includes(name));
if (unknown.length > 0) {
  console.error(`Unknown benchmark(s): ${unknown.join(', ')}. Available: ${available.join(', ')}`);
  process.exit(2);
}

for (const name of requested.length > 0 ? requested : available) {
  console.info(`\n=== ${name} ===`);
  const mod: { default: () => Promise<void> } = await import(join(here, `${name}.bench.ts`));
  await mod.default();
}
