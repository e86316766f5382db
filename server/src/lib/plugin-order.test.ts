import fp from 'fastify-plugin';
import { describe, expect, it } from 'vitest';
import { pluginOrderFrom, registrationOrder } from './plugin-order';

const plugin = (name: string, dependencies: string[] = []) => fp(async () => {}, { name, dependencies });
const nameOf = (p: object) => (p as { [k: symbol]: { name: string } })[Symbol.for('plugin-meta')]?.name;

// database < auth < { account, sockets } < bots (needs both); notifications needs only the database
const PLUGINS = [
  plugin('database'),
  plugin('auth', ['database']),
  plugin('account', ['auth']),
  plugin('notifications', ['database']),
  plugin('sockets', ['auth']),
  plugin('bots', ['account', 'sockets']),
];

function respectsDependencies(order: object[]): boolean {
  const seen = new Set<string>();
  for (const p of order) {
    const meta = (p as { [k: symbol]: { name: string; dependencies: string[] } })[Symbol.for('plugin-meta')];
    if (!meta?.dependencies.every((d) => seen.has(d))) return false;
    seen.add(meta.name);
  }
  return true;
}

describe('plugin registration orders', () => {
  it('keeps the list as written by default', () => {
    expect(registrationOrder(PLUGINS).map(nameOf)).toEqual(PLUGINS.map(nameOf));
  });

  it('reverses the list as far as the dependencies allow', () => {
    const order = registrationOrder(PLUGINS, 'reversed');
    expect(order.map(nameOf)).toEqual(['database', 'notifications', 'auth', 'sockets', 'account', 'bots']);
    expect(respectsDependencies(order)).toBe(true);
  });

  it('shuffles within the dependencies, the same way for the same seed', () => {
    const orders = [1, 2, 3, 4, 5, 6].map((seed) => registrationOrder(PLUGINS, { seed }).map(nameOf));
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      expect(respectsDependencies(registrationOrder(PLUGINS, { seed }))).toBe(true);
    }
    expect(registrationOrder(PLUGINS, { seed: 3 }).map(nameOf)).toEqual(orders[2]);
    expect(new Set(orders.map((o) => o.join())).size).toBeGreaterThan(1);
  });

  it('names the plugins caught in a cycle', () => {
    expect(() => registrationOrder([plugin('a', ['b']), plugin('b', ['a'])], 'reversed')).toThrow(
      /cycle.*a, b/,
    );
  });

  it('reads KESTREL_TEST_PLUGIN_ORDER', () => {
    expect(pluginOrderFrom(undefined)).toBe('listed');
    expect(pluginOrderFrom('reversed')).toBe('reversed');
    expect(pluginOrderFrom('seed:42')).toEqual({ seed: 42 });
  });
});
