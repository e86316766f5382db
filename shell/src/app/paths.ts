import type { RemoteName } from '@kestrel/contracts';

/** A signed-in page, rendered inside the dashboard layout from the remote that owns it */
export type RemotePageRoute = {
  path: string;
  /** Sidebar label and the name used in the slot's fallback */
  title: string;
  remote: RemoteName;
  /** Module the remote exposes; its default export is the page component */
  module: string;
};

/** Every authenticated route of the product spec (§2), and which remote renders it */
export const remotePages = [
  { path: '/dashboard', title: 'Dashboard', remote: 'dashboard', module: './DashboardPage' },
  { path: '/portfolio', title: 'Portfolio', remote: 'dashboard', module: './PortfolioPage' },
  { path: '/history', title: 'Trading history', remote: 'dashboard', module: './HistoryPage' },
  { path: '/analytics', title: 'Analytics', remote: 'dashboard', module: './AnalyticsPage' },
  { path: '/risk', title: 'Risk management', remote: 'dashboard', module: './RiskPage' },
  { path: '/bot-hub', title: 'Bot hub', remote: 'bots', module: './BotHubPage' },
  { path: '/active-bots', title: 'Active bots', remote: 'bots', module: './ActiveBotsPage' },
  { path: '/create-bot', title: 'Create bot', remote: 'bots', module: './CreateBotPage' },
  { path: '/backtesting', title: 'Backtesting', remote: 'bots', module: './BacktestingPage' },
  { path: '/kestrel/:agentId', title: 'AI agent', remote: 'bots', module: './AgentPage' },
  { path: '/account', title: 'Account', remote: 'account', module: './AccountPage' },
  { path: '/settings', title: 'Settings', remote: 'account', module: './SettingsPage' },
] as const satisfies readonly RemotePageRoute[];

/** Pages listed in the sidebar (the agent page is reached from the bot screens, with an id) */
export const sidebarPages = remotePages.filter((p) => !p.path.includes(':'));
