import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../src');

/** Every non-test source file of server/src */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** Relative specifiers a file imports or re-exports, types included: a type-only cycle is a cycle of the design */
function importsOf(file: string, known: ReadonlySet<string>): string[] {
  const text = readFileSync(file, 'utf8');
  const targets: string[] = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'";]*?from\s+'(\.[^']+)'/g)) {
    const base = resolve(dirname(file), match[1] as string);
    const target = [`${base}.ts`, join(base, 'index.ts'), base].find((candidate) => known.has(candidate));
    if (target) targets.push(target);
  }
  return targets;
}

/** Tarjan's strongly connected components with more than one file (or a file importing itself) */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || graph.get(node)?.includes(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('server/src imports', () => {
  it('form no cycle between files', () => {
    const files = sourceFiles(SRC);
    const known = new Set(files);
    const graph = new Map(files.map((file) => [file, importsOf(file, known)]));
    const named = cycles(graph).map((component) => component.map((file) => relative(SRC, file)));
    expect(named).toEqual([]);
  });
});
