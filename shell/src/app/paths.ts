// The route table lives in @kestrel/contracts (pages/page-routes.json), shared with each remote's build
import { type PageRoute, pageRoutes } from '@kestrel/contracts';

export {
  type PageRoute,
  pageRoutes as remotePages,
  sidebarPageRoutes as sidebarPages,
} from '@kestrel/contracts';

/** The signed-in page at `pathname`, as the router matches it (a `:param` segment stands for any one segment) */
export function pageAt(pathname: string): PageRoute | undefined {
  return pageRoutes.find((page) => new RegExp(`^${page.path.replace(/:[^/]+/g, '[^/]+')}/?$`).test(pathname));
}
