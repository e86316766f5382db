/**
 * Registration orders of fastify-plugin plugins. `fastify-plugin` checks, as each plugin registers, that the
 * plugins it names in `dependencies` are already in; any order that passes that check must give the same app (a
 * plugin never reads a neighbour it does not depend on). `registrationOrder` makes such orders so tests can prove
 * it: the list as written, the list as reversed as the dependencies allow, or a seeded shuffle of it.
 */
export type PluginOrder = 'listed' | 'reversed' | { seed: number };

interface PluginMeta {
  name?: string;
  dependencies?: readonly string[];
}

const META = Symbol.for('plugin-meta');

function metaOf(plugin: object): PluginMeta {
  return (plugin as { [META]?: PluginMeta })[META] ?? {};
}

/** Small seeded generator (mulberry32): the same seed, the same order, so a failing order can be run again */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `plugins` in an order their dependencies allow. 'listed' keeps the list (fastify-plugin fails the start if it is
 * not such an order); 'reversed' takes, at each step, the last plugin of the list whose dependencies are in;
 * `{ seed }` takes a seeded random one of those. Dependencies outside `plugins` count as in (registered before)
 */
export function registrationOrder<P extends object>(
  plugins: readonly P[],
  order: PluginOrder = 'listed',
): P[] {
  if (order === 'listed') return [...plugins];
  const listed = new Set(plugins.map((p) => metaOf(p).name).filter((name) => name !== undefined));
  const random = typeof order === 'object' ? seeded(order.seed) : undefined;
  const pending = [...plugins];
  const registered = new Set<string>();
  const out: P[] = [];
  while (pending.length > 0) {
    const ready = pending.filter((p) =>
      (metaOf(p).dependencies ?? []).every((name) => registered.has(name) || !listed.has(name)),
    );
    const pick = random ? ready[Math.floor(random() * ready.length)] : ready[ready.length - 1];
    if (pick === undefined) {
      const names = pending.map((p) => metaOf(p).name ?? '(unnamed)').join(', ');
      throw new Error(`The plugins' dependencies form a cycle or name a missing plugin: ${names}`);
    }
    pending.splice(pending.indexOf(pick), 1);
    const name = metaOf(pick).name;
    if (name !== undefined) registered.add(name);
    out.push(pick);
  }
  return out;
}

/** `KESTREL_TEST_PLUGIN_ORDER` as tests set it: `reversed`, `seed:<n>`, else the listed order */
export function pluginOrderFrom(text: string | undefined): PluginOrder {
  if (text === 'reversed') return 'reversed';
  const seed = /^seed:(\d+)$/.exec(text ?? '')?.[1];
  return seed === undefined ? 'listed' : { seed: Number(seed) };
}
