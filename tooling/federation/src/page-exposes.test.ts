import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pageExposes } from './index.mjs';

const repo = join(import.meta.dirname, '../../..');
const remoteDir = (folder: string) => join(repo, 'remotes', folder);

describe('pageExposes: a remote exposes the pages the route table gives it', () => {
  it('gives each remote its own pages, each built from a file that exists in that remote', () => {
    const dashboard = pageExposes('dashboard', remoteDir('dashboard'));
    const bots = pageExposes('bots', remoteDir('bots'));
    const account = pageExposes('account', remoteDir('account'));

    expect(Object.keys(dashboard)).toEqual([
      './DashboardPage',
      './PortfolioPage',
      './HistoryPage',
      './AnalyticsPage',
      './RiskPage',
    ]);
    expect(Object.keys(bots)).toEqual([
      './BotHubPage',
      './ActiveBotsPage',
      './CreateBotPage',
      './BacktestingPage',
      './AgentPage',
    ]);
    expect(Object.keys(account)).toEqual(['./AccountPage', './SettingsPage']);
    for (const [folder, exposes] of [
      ['dashboard', dashboard],
      ['bots', bots],
      ['account', account],
    ] as const) {
      for (const source of Object.values(exposes))
        expect(existsSync(join(remoteDir(folder), source))).toBe(true);
    }
  });

  it('gives a remote with no pages (the connect modal) none', () => {
    expect(pageExposes('exchange_connect', remoteDir('exchange-connect'))).toEqual({});
  });
});
