import '@kestrel/ui/base.css';
import { mountStandalone } from '@kestrel/shared-runtime/standalone';

// The remote's own page, so its team can work on it without the shell
mountStandalone({
  title: 'Kestrel bots (standalone)',
  pages: [
    { path: '/bot-hub', title: 'Bot hub', load: () => import('./app/routes/bot-hub') },
    { path: '/active-bots', title: 'Active bots', load: () => import('./app/routes/active-bots') },
    { path: '/create-bot', title: 'Create bot', load: () => import('./app/routes/create-bot') },
    { path: '/backtesting', title: 'Backtesting', load: () => import('./app/routes/backtesting') },
    { path: '/kestrel/:agentId', title: 'AI agent', load: () => import('./app/routes/agent') },
  ],
});
