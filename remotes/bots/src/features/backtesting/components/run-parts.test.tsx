import type { BacktestTrade } from '@kestrel/contracts/backtest';
import { toneClassName } from '@kestrel/ui';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { summary } from '../../../test/fixtures';
import { RunProgress } from './run-progress';
import { TRADE_PAGE_SIZE, TradeTable } from './trade-table';

function trade(id: number, pnl: number): BacktestTrade {
  return {
    id,
    side: id % 2 ? 'long' : 'short',
    entryTime: Date.UTC(2025, 0, 1, 0, id),
    entryPrice: 64_000,
    exitTime: Date.UTC(2025, 0, 1, 1, id),
    exitPrice: 64_100,
    quantity: 0.015,
    pnl,
    grossPnl: pnl + 1,
    fees: 0.96,
    funding: 0.04,
    exitReason: 'take-profit',
  };
}

describe('run progress', () => {
  it('announces the share done and stops the run on Cancel', async () => {
    const onCancel = vi.fn();
    render(
      <RunProgress
        run={summary('r', { status: 'running', progress: 0.426 })}
        onCancel={onCancel}
        canceling={false}
      />,
    );
    const bar = screen.getByRole('progressbar', { name: 'Backtest progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('43');
    expect(bar.getAttribute('aria-valuetext')).toBe('Running, 43%');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });
});

describe('trade table', () => {
  it('shows net PnL signed, in green for a win and red for a loss', () => {
    render(<TradeTable trades={[trade(1, 12.345), trade(2, -3.2)]} totalCount={2} />);
    const rows = within(screen.getByRole('table', { name: 'Trades' }))
      .getAllByRole('row')
      .slice(1);
    const pnl = rows.map((row) => within(row).getAllByRole('cell')[9]);
    // The design system's profit and loss colours (tokens success and destructive)
    const [green, red] = [toneClassName('positive'), toneClassName('negative')];
    expect(pnl.map((c) => [c?.textContent, c?.className.split(' ').includes(green)])).toEqual([
      ['+12.35', true],
      ['-3.20', false],
    ]);
    expect(pnl[1]?.className.split(' ')).toContain(red);
    expect(rows[0]?.textContent).toContain('Take profit');
  });

  it(`shows ${TRADE_PAGE_SIZE} trades at first and more on demand`, async () => {
    const trades = Array.from({ length: TRADE_PAGE_SIZE + 5 }, (_, i) => trade(i + 1, 1));
    render(<TradeTable trades={trades} totalCount={trades.length} />);
    const table = screen.getByRole('table', { name: 'Trades' });
    expect(within(table).getAllByRole('row')).toHaveLength(TRADE_PAGE_SIZE + 1);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Show 5 more' }));
    expect(within(table).getAllByRole('row')).toHaveLength(TRADE_PAGE_SIZE + 6);
    expect(screen.queryByRole('button', { name: /^Show/ })).toBeNull();
  });

  it('says when the strategy never traded', () => {
    render(<TradeTable trades={[]} totalCount={0} />);
    expect(screen.getByText('No trades: the strategy never entered a position.')).toBeTruthy();
  });
});
