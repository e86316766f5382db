import { defineFederatedApp } from '@kestrel/federation';

export default defineFederatedApp({
  name: 'bots',
  dir: import.meta.dirname,
  title: 'Kestrel bots (standalone)',
  exposes: {
    './BotHubPage': './src/app/routes/bot-hub.tsx',
    './ActiveBotsPage': './src/app/routes/active-bots.tsx',
    './CreateBotPage': './src/app/routes/create-bot.tsx',
    './BacktestingPage': './src/app/routes/backtesting.tsx',
    './AgentPage': './src/app/routes/agent.tsx',
  },
});
