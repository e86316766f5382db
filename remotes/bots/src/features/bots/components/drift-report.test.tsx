import type { DriftReport } from '@kestrel/contracts/bots';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DriftView, timeDiffText } from './drift-report';

const M = 60_000;
const T0 = Date.UTC(2026, 10, 20, 12);
const trade = (entryTime: number, entryPrice: number, exitPrice: number | null, realizedPnl: number) => ({
  side: 'long' as const,
  entryTime,
  exitTime: exitPrice === null ? null : entryTime + 10 * M,
  entryPrice,
  exitPrice,
  quantity: 0.01,
  realizedPnl,
  fees: 0.2,
  funding: null,
});

const report: DriftReport = {
  botId: '00000000-0000-4000-8000-000000000001',
  mode: 'live',
  strategy: 'ema-cross',
  symbol: 'BTCUSDT',
  interval: '1m',
  period: { from: T0, to: T0 + 60 * M },
  backtest: {
    bars: 80,
    warmupFrom: T0 - 20 * M,
    makerFeeRate: 0.0002,
    takerFeeRate: 0.0005,
    slippageBps: 1,
    funding: true,
  },
  matchWindowMs: 3 * M,
  matched: [
    {
      bot: trade(T0 + M, 50_050, 50_400, 3.5),
      backtest: trade(T0, 50_000, 50_500, 5),
      entryTimeDiffMs: M,
      exitTimeDiffMs: M,
      entryPriceDiff: 50,
      exitPriceDiff: -100,
      entrySlippageBps: 10,
      exitSlippageBps: 19.8,
      realizedPnlDiff: -1.5,
      feesDiff: 0,
    },
  ],
  botOnly: [],
  backtestOnly: [trade(T0 + 30 * M, 50_100, null, 0)],
  totals: {
    bot: { trades: 1, realizedPnl: 3.5, fees: 0.2, funding: null, net: 3.3 },
    backtest: { trades: 2, realizedPnl: 5, fees: 0.4, funding: 0.1, net: 4.5 },
    meanEntrySlippageBps: 10,
    meanExitSlippageBps: 19.8,
    meanEntryDelayMs: M,
  },
  notes: ['Live fills are logged without their fee: the bot’s fees read 0.'],
};

describe('the drift report on a bot card', () => {
  it('shows the totals, each matched trade with its differences, and what only the backtest did', () => {
    render(<DriftView report={report} botName="Trend" />);
    const figures = screen.getByLabelText('Drift of Trend');
    expect(within(figures).getByText('1 / 2')).toBeTruthy();
    expect(within(figures).getByText('+3.30')).toBeTruthy();
    expect(within(figures).getByText('+10.0 bp')).toBeTruthy();
    const matched = screen.getByRole('table', { name: 'Matched trades of Trend' });
    const cells = within(within(matched).getAllByRole('row')[1] as HTMLElement)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells).toEqual([
      'Long',
      '2026-11-20 12:01',
      '+1 bar',
      '50,050.00 / 50,000.00',
      '+10.0 bp',
      '+1 bar',
      '50,400.00 / 50,500.00',
      '+19.8 bp',
      '-1.50',
      '0.00',
    ]);
    expect(screen.getByRole('heading', { name: 'Only the backtest made these (1)' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: /Only the bot made these/ })).toBeNull();
    expect(screen.getByText('Live fills are logged without their fee: the bot’s fees read 0.')).toBeTruthy();
  });

  it('says time differences in bars when whole, else in seconds', () => {
    expect(timeDiffText(0, M)).toBe('0');
    expect(timeDiffText(-2 * M, M)).toBe('−2 bars');
    expect(timeDiffText(30_000, M)).toBe('+30 s');
    expect(timeDiffText(null, M)).toBe('—');
  });
});
