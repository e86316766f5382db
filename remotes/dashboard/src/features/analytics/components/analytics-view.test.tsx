import type { Analytics } from '@kestrel/contracts';
import { MemoryRouter } from '@kestrel/shared-runtime/router';
import { render as renderPlain, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { AnalyticsView } from './analytics-view';

// The bot table links to /active-bots
const render = (ui: ReactElement) => renderPlain(ui, { wrapper: MemoryRouter });

const D = (date: string) => Date.parse(`${date}T00:00:00Z`);
const sums = { realizedPnl: '0', commission: '0', fundingFee: '0', other: '0', net: '0' };

const analytics: Analytics = {
  from: D('2026-11-02'),
  to: D('2026-11-05') - 1,
  bucketMs: 60_000,
  equity: [],
  maxDrawdown: { amount: '110', ratio: '0.1000' },
  daily: [
    {
      day: D('2026-11-03'),
      ...sums,
      realizedPnl: '13.4',
      commission: '-1',
      net: '12.4',
      startEquity: '1000',
      return: '0.0124',
    },
    { day: D('2026-11-04'), ...sums, realizedPnl: '-5', net: '-5', startEquity: '1012.4', return: '-0.0049' },
  ],
  symbols: [
    {
      symbol: 'BTCUSDT',
      ...sums,
      realizedPnl: '13.4',
      commission: '-1',
      net: '12.4',
      closingFills: 2,
      wins: 2,
      winRate: '1.0000',
    },
    { symbol: 'ETHUSDT', ...sums, realizedPnl: '-5', net: '-5', closingFills: 4, wins: 1, winRate: '0.2500' },
  ],
  bots: [
    {
      botId: '00000000-0000-4000-8000-000000000001',
      name: 'BTC grid',
      symbol: 'BTCUSDT',
      mode: 'paper',
      fills: 5,
      realizedPnl: '6',
      commission: '-0.5',
      net: '5.5',
      closingFills: 2,
      wins: 1,
      winRate: '0.5000',
    },
    {
      botId: '00000000-0000-4000-8000-000000000002',
      name: 'ETH trend',
      symbol: 'ETHUSDT',
      mode: 'live',
      fills: 2,
      realizedPnl: '-3',
      commission: '0',
      net: '-3',
      closingFills: 1,
      wins: 0,
      winRate: '0.0000',
    },
  ],
  totals: {
    ...sums,
    realizedPnl: '8.4',
    commission: '-1',
    net: '7.4',
    transfers: '0',
    closingFills: 6,
    wins: 3,
    winRate: '0.5000',
    grossProfit: '20',
    grossLoss: '11.6',
    profitFactor: '1.7241',
  },
  ratios: { sharpe: '3.1200', sortino: null, days: 2 },
  syncedTo: D('2026-11-05'),
};

describe('the analytics view', () => {
  it('the figures: cards, a calendar square per day named by date and result, the symbols sortable', async () => {
    render(<AnalyticsView state="ready" analytics={analytics} connected connectAction={null} />);
    const card = (name: string) => screen.getByRole('article', { name });
    expect(within(card('Net PnL')).getByText('+7.40 USDT')).toBeTruthy();
    expect(within(card('Max drawdown')).getByText('10.00%')).toBeTruthy();
    expect(within(card('Win rate')).getByText('50.0%')).toBeTruthy();
    expect(within(card('Profit factor')).getByText('1.72')).toBeTruthy();
    expect(within(card('Sharpe ratio')).getByText('3.12')).toBeTruthy();
    expect(within(card('Sortino ratio')).getByText('—')).toBeTruthy();
    expect(within(card('Fees paid')).getByText('1.00 USDT')).toBeTruthy();

    const calendar = screen.getByRole('table', { name: 'Net result per UTC day' });
    expect(within(calendar).getByLabelText('2026-11-03: +12.40 USDT').dataset.tone).toBe('positive');
    expect(within(calendar).getByLabelText('2026-11-04: -5.00 USDT').dataset.tone).toBe('negative');
    expect(within(calendar).getByLabelText('2026-11-02: no trading')).toBeTruthy();

    const table = screen.getByRole('table', { name: 'Results per symbol' });
    const symbols = () =>
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((r) => within(r).getAllByRole('cell')[0]?.textContent);
    expect(symbols()).toEqual(['BTCUSDT', 'ETHUSDT']);
    // Win rate ascending: ETH's 25 % first
    await userEvent.click(within(table).getByRole('button', { name: /Win rate/ }));
    expect(symbols()).toEqual(['ETHUSDT', 'BTCUSDT']);
    expect(screen.getByText('No equity was recorded in this range.')).toBeTruthy();
    // Role queries over the whole page are slow on a loaded machine
  }, 20_000);

  it('per bot: net, realized, fees, trades and win rate, each bot linking to its place on /active-bots', () => {
    render(<AnalyticsView state="ready" analytics={analytics} connected connectAction={null} />);
    const table = screen.getByRole('table', { name: 'Results per bot' });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      );
    expect(rows).toEqual([
      ['BTC grid', 'BTCUSDT Paper', '+5.50', '+6.00', '-0.50', '2', '50.0%'],
      ['ETH trend', 'ETHUSDT Live', '-3.00', '-3.00', '0.00', '1', '0.0%'],
    ]);
    expect(within(table).getByRole('link', { name: 'BTC grid' }).getAttribute('href')).toBe(
      '/active-bots#bot-00000000-0000-4000-8000-000000000001',
    );
  });

  it('a range where no bot traded says so beside the account figures', () => {
    render(
      <AnalyticsView state="ready" analytics={{ ...analytics, bots: [] }} connected connectAction={null} />,
    );
    const section = screen
      .getByRole('heading', { name: /Results per bot/ })
      .closest('section') as HTMLElement;
    expect(within(section).getByText(/No bot traded in this range/)).toBeTruthy();
    expect(within(section).getByRole('link', { name: 'Start a bot' }).getAttribute('href')).toBe('/bot-hub');
  });

  it('an empty range says the recorder starts when keys are connected', () => {
    const empty = { ...analytics, daily: [], symbols: [], equity: [], bots: [] };
    render(<AnalyticsView state="ready" analytics={empty} connected connectAction={null} />);
    expect(screen.getByRole('heading', { name: 'No trading history in this range yet' })).toBeTruthy();
    expect(screen.getByText(/records your account from the moment your keys are connected/)).toBeTruthy();
  });

  it('no exchange: the connect action; an error: the reason and a retry', async () => {
    const { unmount } = render(
      <AnalyticsView state="no-exchange" connectAction={<button type="button">Connect exchange</button>} />,
    );
    expect(screen.getByRole('heading', { name: 'No exchange connected' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Connect exchange' })).toBeTruthy();
    unmount();
    const onRetry = vi.fn();
    render(<AnalyticsView state="error" message="HTTP 500: Internal Server Error" onRetry={onRetry} />);
    expect(screen.getByRole('alert').textContent).toContain('HTTP 500: Internal Server Error');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });
});
