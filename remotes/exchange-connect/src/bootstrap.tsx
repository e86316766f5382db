import '@kestrel/ui/base.css';
import { mountStandalone } from '@kestrel/shared-runtime/standalone';

// The remote's own page, so its team can work on it without the shell
mountStandalone({
  title: 'Kestrel exchange connect (standalone)',
  pages: [{ path: '/', title: 'Exchange connections', load: () => import('./app/routes/standalone-home') }],
});
