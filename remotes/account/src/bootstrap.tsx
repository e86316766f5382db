import '@kestrel/ui/base.css';
import { mountStandalone } from '@kestrel/shared-runtime/standalone';

// The remote's own page, so its team can work on it without the shell
mountStandalone({
  title: 'Kestrel account (standalone)',
  pages: [
    { path: '/account', title: 'Account', load: () => import('./app/routes/account') },
    { path: '/settings', title: 'Settings', load: () => import('./app/routes/settings') },
  ],
});
