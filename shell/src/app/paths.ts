// The route table lives in @kestrel/contracts (pages/page-routes.json), shared with each remote's build
export {
  type PageRoute,
  pageRoutes as remotePages,
  sidebarPageRoutes as sidebarPages,
} from '@kestrel/contracts';
