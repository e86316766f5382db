import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Each app compiles only the utilities its own source uses, under its own prefix (README, "CSS: why one remote
 * cannot restyle another"). So a class written with another app's prefix has no rule anywhere unless that app's own
 * source happens to use it too: `ui:p-8` in the runtime's loading slot was in no stylesheet, and the slot had no
 * padding. The runtime has no stylesheet at all: its markup comes from ui's components.
 */
const repo = join(import.meta.dirname, '../../..');

/** Folder → the prefix its stylesheet compiles (`prefix(…)` in its CSS); null: a folder that compiles none */
const FOLDERS: Record<string, string | null> = {
  shell: 'sh',
  'remotes/dashboard': 'db',
  'remotes/bots': 'bt',
  'remotes/exchange-connect': 'xc',
  'remotes/account': 'ac',
  'packages/ui': 'ui',
  'packages/shared-runtime': null,
};
const PREFIXES = Object.values(FOLDERS).filter((prefix) => prefix !== null);
/** A prefixed utility as markup writes it: `db:p-4`, `ui:sm:p-4`, `bt:w-[3ch]` */
const CLASS = new RegExp(`(?<![\\w:-])(${PREFIXES.join('|')}):[a-z0-9@!\\[-][\\w:./%\\[\\]()#,-]*`, 'g');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sources(path));
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(path);
  }
  return out;
}

/** Every prefixed class in a folder's source: those in its own prefix, and `file:line class` for the others */
function classesIn(root: string, own: string | null, files: string[]) {
  let ownCount = 0;
  const foreign: string[] = [];
  for (const file of files) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (/^\s*(\/\/|\*|\/\*)/.test(line)) return; // comments speak of classes, they do not apply them
        for (const [cls, prefix] of line.matchAll(CLASS)) {
          if (prefix === own) ownCount++;
          else foreign.push(`${relative(root, file)}:${i + 1} ${cls}`);
        }
      });
  }
  return { ownCount, foreign };
}

describe("every app's markup writes only its own prefix", () => {
  for (const [folder, own] of Object.entries(FOLDERS)) {
    it(`${folder} writes ${own ? `only ${own}: classes` : 'no prefixed class'}`, () => {
      const { ownCount, foreign } = classesIn(repo, own, sources(join(repo, folder, 'src')));
      expect(foreign).toEqual([]);
      // The pattern still finds the folder's own classes: a check that matched nothing would pass on anything
      if (own) expect(ownCount).toBeGreaterThan(20);
    });
  }

  it("names a class written in another app's prefix", () => {
    const dir = mkdtempSync(join(tmpdir(), 'class-prefixes-'));
    const file = join(dir, 'slot.tsx');
    // The runtime's loading slot as it was: a ui: class only ui's stylesheet could compile, and did not
    writeFileSync(
      file,
      '// ui:p-4 in a comment\nexport const slot = <div className="sh:flex ui:p-8 ui:sm:p-4" />;\n',
    );
    expect(classesIn(dir, 'sh', [file])).toEqual({
      ownCount: 1,
      foreign: ['slot.tsx:2 ui:p-8', 'slot.tsx:2 ui:sm:p-4'],
    });
  });
});
