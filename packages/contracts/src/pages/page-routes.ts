import { z } from 'zod';
import { RemoteNameSchema } from '../runtime-config';
// The one route table: the shell's router and sidebar, each remote's Module Federation exposes (read by
// @kestrel/federation at build time, hence JSON, which Node reads without a TypeScript step) and each remote's
// standalone page all come from this file
import pageRouteTable from './page-routes.json';

export const PageRouteSchema = z
  .object({
    /** Route path in the shell (`:params` allowed); spec §2 */
    path: z
      .string()
      .regex(/^(\/([a-z0-9-]+|:[a-zA-Z]+))+$/, 'a path is /-separated lower-case words and :params'),
    /** Sidebar label, and the name the slot's fallback uses */
    title: z.string().min(1),
    /** The remote that renders the page */
    remote: RemoteNameSchema,
    /** The module the remote exposes; its default export is the page component */
    module: z.string().regex(/^\.\/[A-Z][A-Za-z]*Page$/, 'an exposed page module reads ./SomethingPage'),
    /** The file inside the remote's folder that module is built from */
    source: z
      .string()
      .regex(/^\.\/src\/app\/routes\/[a-z-]+\.tsx$/, 'a page lives in ./src/app/routes/<name>.tsx'),
  })
  .strict();
export type PageRoute = z.infer<typeof PageRouteSchema>;

/** Every signed-in page of the product (spec §2), in sidebar order, and which remote renders it */
export const pageRoutes: readonly PageRoute[] = z.array(PageRouteSchema).parse(pageRouteTable);

/** Pages listed in the sidebar: the ones reached without an id (the agent page opens from the bot screens) */
export const sidebarPageRoutes: readonly PageRoute[] = pageRoutes.filter((page) => !page.path.includes(':'));
