import '@kestrel/ui/base.css';
import { mountStandalone } from '@kestrel/shared-runtime/standalone';

// The remote's own page, so its team can work on it without the shell
mountStandalone({
  title: 'Kestrel dashboard (standalone)',
  pages: [
    { path: '/dashboard', title: 'Dashboard', load: () => import('./app/routes/dashboard') },
    { path: '/portfolio', title: 'Portfolio', load: () => import('./app/routes/portfolio') },
    { path: '/history', title: 'Trading history', load: () => import('./app/routes/history') },
    { path: '/analytics', title: 'Analytics', load: () => import('./app/routes/analytics') },
    { path: '/risk', title: 'Risk management', load: () => import('./app/routes/risk') },
  ],
});
