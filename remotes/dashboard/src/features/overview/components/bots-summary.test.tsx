import type { BotsSummary as BotsSummaryData } from '@kestrel/contracts';
import { MemoryRouter } from '@kestrel/shared-runtime/router';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BotsSummary } from './bots-summary';

const summary = (overrides: Partial<BotsSummaryData> = {}): BotsSummaryData => ({
  total: 2,
  running: 1,
  byState: { stopped: 1, starting: 0, running: 1, stopping: 0, paused: 0, error: 0 },
  paper: 1,
  live: 1,
  byEnvironment: { testnet: 2, mainnet: 0 },
  realizedPnl: 30.5,
  unrealizedPnl: -4.25,
  todayPnl: 7.1,
  bots: [
    {
      id: '00000000-0000-4000-8000-000000000001',
      name: 'BTC grid',
      symbol: 'BTCUSDT',
      mode: 'paper',
      state: 'running',
      environment: 'testnet',
      realizedPnl: 40.5,
      unrealizedPnl: -4.25,
      todayPnl: 9.1,
    },
    {
      id: '00000000-0000-4000-8000-000000000002',
      name: 'ETH trend',
      symbol: 'ETHUSDT',
      mode: 'live',
      state: 'stopped',
      environment: 'testnet',
      realizedPnl: -10,
      unrealizedPnl: 0,
      todayPnl: -2,
    },
  ],
  ...overrides,
});

const show = (s: BotsSummaryData) =>
  render(
    <MemoryRouter>
      <BotsSummary state="ready" summary={s} />
    </MemoryRouter>,
  );

describe('the dashboard bots summary', () => {
  it('shows each bot with its PnL today and all time, linking to it on /active-bots, and the total', () => {
    show(summary());
    const all = screen.getByRole('region', { name: 'All bots' });
    expect(all.textContent).toBe('Today+7.10All time+26.25');
    const [grid, trend] = within(screen.getByRole('list', { name: 'Bots' })).getAllByRole('listitem');
    expect(
      within(grid as HTMLElement)
        .getByRole('link', { name: 'BTC grid' })
        .getAttribute('href'),
    ).toBe('/active-bots#bot-00000000-0000-4000-8000-000000000001');
    expect(grid?.textContent).toContain('BTCUSDTRunningPaperTestnet');
    expect(grid?.textContent).toContain('Today+9.10All time+36.25');
    expect(trend?.textContent).toContain('Today-2.00All time-10.00');
    expect(within(trend as HTMLElement).getByText('-10.00').className).toContain('destructive');
    expect(screen.getByText(/of 2 running/).textContent).toBe('1 of 2 running · all on testnet');
  });

  it('says how many bots trade real money on mainnet, and marks each one', () => {
    const base = summary();
    show(
      summary({
        byEnvironment: { testnet: 1, mainnet: 1 },
        bots: base.bots.map((b, i) => (i === 1 ? { ...b, environment: 'mainnet' } : b)),
      }),
    );
    expect(screen.getByText(/of 2 running/).textContent).toBe(
      '1 of 2 running · 1 on LIVE mainnet · 1 on testnet',
    );
    expect(screen.getByText('1 on LIVE mainnet').className).toContain('text-destructive');
    const [grid, trend] = within(screen.getByRole('list', { name: 'Bots' })).getAllByRole('listitem');
    expect(within(grid as HTMLElement).getByLabelText('Trades on testnet').textContent).toBe('Testnet');
    expect(within(trend as HTMLElement).getByLabelText('Trades on mainnet, real money').textContent).toBe(
      'Mainnet',
    );
  });

  it('without bots, says so and links to the bot hub', () => {
    show(summary({ total: 0, running: 0, bots: [], realizedPnl: 0, unrealizedPnl: 0, todayPnl: 0 }));
    expect(screen.getByText('No bots yet')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Browse bots' }).getAttribute('href')).toBe('/bot-hub');
  });
});
