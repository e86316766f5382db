// The one route table: the shell's router and sidebar, each remote's Module Federation exposes (read by
// @kestrel/federation at build time, hence JSON, which Node reads without a TypeScript step) and each remote's
// standalone page all come from this file. No zod here: the shell reads the table as the page starts;
// `page-route-schema.ts` states its rules and `page-routes.test.ts` holds the table to them.
import type { RemoteName } from '../runtime-config-read';
import pageRouteTable from './page-routes.json';

/** One signed-in page: where it is, what it is called and which remote renders it */
export interface PageRoute {
  /** Route path in the shell (`:params` allowed); spec §2 */
  path: string;
  /** Sidebar label, and the name the slot's fallback uses */
  title: string;
  /** The remote that renders the page */
  remote: RemoteName;
  /** The module the remote exposes; its default export is the page component */
  module: string;
  /** The file inside the remote's folder that module is built from */
  source: string;
}

/** Every signed-in page of the product (spec §2), in sidebar order, and which remote renders it */
export const pageRoutes: readonly PageRoute[] = pageRouteTable as PageRoute[];

/** Pages listed in the sidebar: the ones reached without an id (the agent page opens from the bot screens) */
export const sidebarPageRoutes: readonly PageRoute[] = pageRoutes.filter((page) => !page.path.includes(':'));
