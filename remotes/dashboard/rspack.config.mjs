import { defineFederatedApp } from '@kestrel/federation';

export default defineFederatedApp({
  name: 'dashboard',
  dir: import.meta.dirname,
  title: 'Kestrel dashboard (standalone)',
  exposes: {
    './DashboardPage': './src/app/routes/dashboard.tsx',
    './PortfolioPage': './src/app/routes/portfolio.tsx',
    './HistoryPage': './src/app/routes/history.tsx',
    './AnalyticsPage': './src/app/routes/analytics.tsx',
    './RiskPage': './src/app/routes/risk.tsx',
  },
});
