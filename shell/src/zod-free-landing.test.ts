// @vitest-environment node
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The landing page starts without zod (~25 KB gzip) and the contracts' schemas (~6 KB): that is most of what keeps it
 * under its 150 KB budget (`pnpm bench bundle-size`, tooling/federation CONTEXT). A bench is not run by CI, so this
 * walks the module graph the way the bundler does and fails on the first path from the landing's code to a value
 * import of zod, naming it:
 * - static value imports only (`import type` and `import()` are not on the start path: a dynamic import is how the
 *   schemas load on first use);
 * - a shared module (`@kestrel/shared-runtime` and its entry points, `@kestrel/ui`'s) loads whole: every module its
 *   entry file reaches;
 * - the shell bundles its own tree-shaken contracts: only the files that declare the names it imports, and theirs.
 */
const repo = resolve(import.meta.dirname, '../..');

/** The landing page's code: the shell's entry, what it always loads next, and the landing route */
const LANDING_ROOTS = ['shell/src/index.ts', 'shell/src/bootstrap.tsx', 'shell/src/app/routes/landing.tsx'];

const WORKSPACE: Record<string, string> = {
  '@kestrel/shared-runtime': 'packages/shared-runtime',
  '@kestrel/ui': 'packages/ui',
  '@kestrel/contracts': 'packages/contracts',
};

type ValueImport = { from: string; names: string[] | 'all' };

function valueImports(file: string): ValueImport[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: ValueImport[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const clause = statement.importClause;
      if (clause?.isTypeOnly) continue;
      const from = statement.moduleSpecifier.text;
      if (!clause) {
        found.push({ from, names: 'all' }); // a bare import runs the module
        continue;
      }
      const names: string[] = [];
      if (clause.name) names.push('default');
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) {
        found.push({ from, names: 'all' });
        continue;
      }
      if (bindings && ts.isNamedImports(bindings)) {
        for (const element of bindings.elements) {
          if (!element.isTypeOnly) names.push((element.propertyName ?? element.name).text);
        }
      }
      if (names.length > 0) found.push({ from, names });
    } else if (
      ts.isExportDeclaration(statement) &&
      !statement.isTypeOnly &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier)
    ) {
      const clause = statement.exportClause;
      const names =
        clause && ts.isNamedExports(clause)
          ? clause.elements.filter((e) => !e.isTypeOnly).map((e) => (e.propertyName ?? e.name).text)
          : 'all';
      if (names === 'all' || names.length > 0) found.push({ from: statement.moduleSpecifier.text, names });
    }
  }
  return found;
}

function resolveFile(base: string): string {
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    join(base, 'index.ts'),
    join(base, 'index.tsx'),
  ]) {
    if (/\.(tsx?|json)$/.test(candidate) && existsSync(candidate)) return candidate;
  }
  throw new Error(`cannot resolve ${base}`);
}

/** A workspace package's entry file for `@kestrel/x` or `@kestrel/x/sub`, from its package.json exports */
function workspaceEntry(specifier: string): string | undefined {
  const name = Object.keys(WORKSPACE).find((n) => specifier === n || specifier.startsWith(`${n}/`));
  if (!name) return undefined;
  const dir = join(repo, WORKSPACE[name] as string);
  const exports = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).exports as Record<
    string,
    string
  >;
  const target = exports[`.${specifier.slice(name.length)}`];
  if (!target) throw new Error(`${specifier} is not an entry point of ${name}`);
  return join(dir, target);
}

/** The file that declares `name` among an entry file's re-exports (the contracts' index files are all re-exports) */
function declaringFile(entry: string, name: string): string {
  for (const { from, names } of valueImports(entry)) {
    if (names === 'all' || names.includes(name)) return resolveFile(resolve(dirname(entry), from));
  }
  throw new Error(`${name} is not exported by ${entry}`);
}

/** The chain of files from one of `roots` to a value import of zod, or null */
function pathToZod(roots: readonly string[]): string[] | null {
  const parent = new Map<string, string | null>();
  const queue: string[] = [];
  const visit = (file: string, from: string | null) => {
    if (parent.has(file)) return;
    parent.set(file, from);
    queue.push(file);
  };
  for (const root of roots) visit(join(repo, root), null);
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (file.endsWith('.json')) continue;
    for (const { from, names } of valueImports(file)) {
      if (from === 'zod' || from.startsWith('zod/')) {
        const chain = [file];
        for (let f = parent.get(file); f; f = parent.get(f)) chain.unshift(f);
        return chain.map((f) => f.slice(repo.length + 1));
      }
      if (from.startsWith('.')) {
        if (!from.endsWith('.css')) visit(resolveFile(resolve(dirname(file), from)), file);
        continue;
      }
      const entry = workspaceEntry(from);
      if (!entry) continue; // another library: react, rxjs, the federation runtime…
      if (from.startsWith('@kestrel/contracts') && names !== 'all') {
        for (const name of names) visit(declaringFile(entry, name), file);
      } else visit(entry, file);
    }
  }
  return null;
}

describe('the landing page starts without zod', () => {
  it('no static value import path leads from its code to zod', () => {
    expect(
      pathToZod(LANDING_ROOTS),
      'this path puts zod on the landing page: name the schema as a pick, `{ schema: (c) => c.XSchema }`, or read the value without zod (shared-runtime CONTEXT)',
    ).toBeNull();
  });

  it('finds the path from code that parses with a schema', () => {
    expect(pathToZod(['remotes/dashboard/src/api/get-symbol-info.ts'])).toEqual([
      'remotes/dashboard/src/api/get-symbol-info.ts',
      'packages/contracts/src/futures/futures.ts',
    ]);
  });
});
