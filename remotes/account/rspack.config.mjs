import { defineFederatedApp } from '@kestrel/federation';

export default defineFederatedApp({
  name: 'account',
  dir: import.meta.dirname,
  // Its pages' exposes come from the route table in @kestrel/contracts (pages/page-routes.json)
  title: 'Kestrel account (standalone)',
});
