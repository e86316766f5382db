import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { PageRouteSchema } from './page-route-schema';
import { type PageRoute, pageRoutes, sidebarPageRoutes } from './page-routes';
import pageRouteTable from './page-routes.json';

describe('the route table', () => {
  // The browser takes the JSON as it is (no zod at start): the rules are held here, and by the build, which reads it
  it('keeps the rules of PageRouteSchema in every entry', () => {
    for (const entry of pageRouteTable) expect(PageRouteSchema.parse(entry)).toEqual(entry);
    expectTypeOf<z.infer<typeof PageRouteSchema>>().toEqualTypeOf<PageRoute>();
  });

  it('holds every authenticated route of spec §2, each once', () => {
    const paths = pageRoutes.map((page) => page.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect([...paths].sort()).toEqual(
      [
        '/dashboard',
        '/bot-hub',
        '/active-bots',
        '/portfolio',
        '/history',
        '/analytics',
        '/backtesting',
        '/risk',
        '/account',
        '/settings',
        '/create-bot',
        // "a product-branded first segment followed by /{agentId}"
        '/kestrel/:agentId',
      ].sort(),
    );
  });

  it('keeps the agent page (it needs an id) out of the sidebar', () => {
    expect(sidebarPageRoutes.map((page) => page.path)).not.toContain('/kestrel/:agentId');
    expect(sidebarPageRoutes).toHaveLength(pageRoutes.length - 1);
  });

  it('exposes each page module once per remote', () => {
    const keys = pageRoutes.map((page) => `${page.remote}/${page.module}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
