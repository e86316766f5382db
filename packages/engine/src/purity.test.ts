import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// The core must stay reproducible and browser-safe: no wall clock, timers, Math.random or Node built-ins.
// Only src/node/ (worker threads) may use Node; tests may use anything.
const root = new URL('.', import.meta.url).pathname;
const banned = [
  /\bDate\.now\b/,
  /\bnew Date\(\)/,
  /\bperformance\.now\b/,
  /\bMath\.random\b/,
  /\bset(Timeout|Interval|Immediate)\b/,
  /from ['"]node:/,
  /\bprocess\./,
];

function coreFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node' ? [] : coreFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.startsWith('test-')
      ? [path]
      : [];
  });
}

describe('engine core purity', () => {
  it('has no clock, timer, randomness or Node import outside src/node', () => {
    const offences = coreFiles(root).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          banned.some((re) => re.test(line)) && !line.trim().startsWith('//') && !line.trim().startsWith('*')
            ? [`${relative(root, file)}:${i + 1}: ${line.trim()}`]
            : [],
        ),
    );
    expect(offences).toEqual([]);
    expect(coreFiles(root).length).toBeGreaterThan(20);
  });
});
