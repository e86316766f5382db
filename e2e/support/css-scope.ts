import postcss, { type AtRule, type Container, type Rule } from 'postcss';

/**
 * Rules of a stylesheet that could style elements outside the app that shipped it.
 *
 * A rule is contained when every selector carries one of the app's class prefixes (`.db\:flex`), or when it only
 * sets Tailwind's internal `--tw-*` defaults or the app's own prefixed theme variables (`--db-spacing`). The shell
 * also owns the document base (Preflight, tokens), so its `base` layer is exempt.
 */
export function uncontainedRules(
  css: string,
  { prefixes, ownsBase = false }: { prefixes: readonly string[]; ownsBase?: boolean },
): string[] {
  const offenders: string[] = [];
  const classPrefixes = prefixes.map((p) => `.${p}\\:`);
  const varPrefixes = ['--tw-', ...prefixes.map((p) => `--${p}-`)];
  postcss.parse(css).walkRules((rule: Rule) => {
    const layers = enclosingAtRules(rule);
    if (layers.some((a) => a.name.endsWith('keyframes'))) return;
    if (ownsBase && layers.some((a) => a.name === 'layer' && a.params === 'base')) return;
    const scoped = rule.selectors.every((s) => classPrefixes.some((p) => s.includes(p)));
    if (scoped) return;
    const declarations = rule.nodes.filter((n) => n.type === 'decl');
    const onlyOwnVariables =
      declarations.length > 0 && declarations.every((d) => varPrefixes.some((p) => d.prop.startsWith(p)));
    if (onlyOwnVariables) return;
    offenders.push(`${rule.selector} { ${declarations.map((d) => d.prop).join('; ')} }`);
  });
  return offenders;
}

function enclosingAtRules(rule: Rule): AtRule[] {
  const found: AtRule[] = [];
  let parent: Container | undefined = rule.parent as Container | undefined;
  while (parent && parent.type !== 'root') {
    if (parent.type === 'atrule') found.push(parent as AtRule);
    parent = parent.parent as Container | undefined;
  }
  return found;
}
