// @ts-check
/**
 * The public contract of a shared package: every export of every entry point in its package.json `exports`, each
 * with a short hash of its TypeScript type. A federated remote is built against one version of a shared package
 * and runs against whichever the page has, so a version must change whenever this contract does; `api-surface.json`
 * beside each shared package records the contract of its current version, and a test fails when they disagree.
 *
 *   node tooling/federation/src/api-surface.mjs            check every shared package (exit 1 on drift)
 *   node tooling/federation/src/api-surface.mjs --write    record the current contracts (after bumping versions)
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** The packages every app shares at run time (see `sharedSingletons` in index.mjs) */
export const SHARED_PACKAGES = ['packages/shared-runtime', 'packages/contracts', 'packages/ui'];

const short = (/** @type {string} */ text) => createHash('sha256').update(text).digest('hex').slice(0, 12);

/**
 * @param {string} pkgDir a package folder, relative to the repository
 * @returns {{ name: string, version: string, exports: Record<string, Record<string, string>> }}
 */
export function apiSurface(pkgDir) {
  const dir = join(repo, pkgDir);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  /** @type {[string, string][]} entry point → source file */
  const entries = Object.entries(pkg.exports ?? {}).filter(
    /** @returns {entry is [string, string]} */ (entry) =>
      typeof entry[1] === 'string' && /\.tsx?$/.test(entry[1]),
  );
  const config = ts.getParsedCommandLineOfConfigFile(
    join(dir, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error(`${pkgDir}/tsconfig.json could not be read`);
  const program = ts.createProgram({
    rootNames: entries.map(([, file]) => join(dir, file)),
    options: { ...config.options, composite: false, noEmit: true, emitDeclarationOnly: false },
  });
  const checker = program.getTypeChecker();
  const flags =
    ts.TypeFormatFlags.NoTruncation |
    ts.TypeFormatFlags.InTypeAlias |
    ts.TypeFormatFlags.UseFullyQualifiedType;
  /** @type {Record<string, Record<string, string>>} */
  const surface = {};
  for (const [entry, file] of entries) {
    const source = program.getSourceFile(join(dir, file));
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (!moduleSymbol) throw new Error(`${pkgDir}: ${file} is not a module`);
    /** @type {Record<string, string>} */
    const names = {};
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const parts = [];
      if (symbol.flags & (ts.SymbolFlags.Type | ts.SymbolFlags.Class)) {
        parts.push(checker.typeToString(checker.getDeclaredTypeOfSymbol(symbol), undefined, flags));
      }
      if (symbol.flags & ts.SymbolFlags.Value && symbol.declarations?.[0]) {
        parts.push(
          checker.typeToString(
            checker.getTypeOfSymbolAtLocation(symbol, symbol.declarations[0]),
            undefined,
            flags,
          ),
        );
      }
      // Types from other files print as import("<absolute path>"): the checkout's folder must not change the hash
      names[exported.name] = short(parts.join('\n').split(repo).join(''));
    }
    surface[entry] = Object.fromEntries(Object.entries(names).sort(([a], [b]) => a.localeCompare(b)));
  }
  return { name: pkg.name, version: pkg.version, exports: surface };
}

/** @param {string} pkgDir */
export const recordedSurfacePath = (pkgDir) => join(repo, pkgDir, 'api-surface.json');

/**
 * What is wrong between a package's contract and its record, in words; empty when they agree
 * @param {string} pkgDir
 */
export function surfaceDrift(pkgDir) {
  const current = apiSurface(pkgDir);
  /** @type {ReturnType<typeof apiSurface> | undefined} */
  let recorded;
  try {
    recorded = JSON.parse(readFileSync(recordedSurfacePath(pkgDir), 'utf8'));
  } catch {
    return [
      `${current.name} has no api-surface.json: run \`node tooling/federation/src/api-surface.mjs --write\``,
    ];
  }
  if (!recorded) return [];
  const changed = [];
  for (const [entry, names] of Object.entries(current.exports)) {
    const before = recorded.exports[entry] ?? {};
    for (const [name, hash] of Object.entries(names)) {
      if (!(name in before)) changed.push(`added ${entry} ${name}`);
      else if (before[name] !== hash) changed.push(`changed ${entry} ${name}`);
    }
    for (const name of Object.keys(before)) if (!(name in names)) changed.push(`removed ${entry} ${name}`);
  }
  for (const entry of Object.keys(recorded.exports)) {
    if (!(entry in current.exports)) changed.push(`removed entry point ${entry}`);
  }
  if (changed.length === 0) return [];
  if (recorded.version === current.version) {
    return [
      `${current.name}'s contract changed but its version is still ${current.version} (${changed.join(', ')}): bump the version (patch for a fix that keeps every type, minor for additions, the leading non-zero number for anything removed or changed) and run \`node tooling/federation/src/api-surface.mjs --write\``,
    ];
  }
  return [
    `${current.name} is now ${current.version}: record its contract with \`node tooling/federation/src/api-surface.mjs --write\``,
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--write')) {
    for (const pkgDir of SHARED_PACKAGES) {
      writeFileSync(recordedSurfacePath(pkgDir), `${JSON.stringify(apiSurface(pkgDir), null, 2)}\n`);
      console.info(`recorded ${pkgDir}/api-surface.json`);
    }
  } else {
    const problems = SHARED_PACKAGES.flatMap(surfaceDrift);
    for (const problem of problems) console.error(problem);
    process.exit(problems.length > 0 ? 1 : 0);
  }
}
