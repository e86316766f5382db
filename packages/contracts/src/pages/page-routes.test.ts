import { describe, expect, it } from 'vitest';
import { pageRoutes, sidebarPageRoutes } from './page-routes';

describe('the route table', () => {
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
