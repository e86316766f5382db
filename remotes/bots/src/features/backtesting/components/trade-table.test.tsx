import type { BacktestTrade } from '@kestrel/contracts/backtest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { TRADE_PAGE_SIZE, TradeTable } from './trade-table';

const MINUTE = 60_000;
const T0 = Date.UTC(2025, 0, 1);

/** A round trip; entry `entryMinute` minutes into the year, held `heldMinutes` */
function trade(
  id: number,
  fields: Partial<BacktestTrade> & { entryMinute: number; heldMinutes?: number },
): BacktestTrade {
  const { entryMinute, heldMinutes = 30, ...rest } = fields;
  return {
    id,
    side: 'long',
    entryTime: T0 + entryMinute * MINUTE,
    entryPrice: 64_000,
    exitTime: T0 + (entryMinute + heldMinutes) * MINUTE,
    exitPrice: 64_100,
    quantity: 0.015,
    pnl: 1,
    grossPnl: 2,
    fees: 0.96,
    funding: 0.04,
    exitReason: 'signal',
    ...rest,
  };
}

// Handed over out of entry order, with prices whose text order differs from their numeric order (9 500 < 10 200)
const TRADES: BacktestTrade[] = [
  trade(1, { entryMinute: 20, side: 'short', entryPrice: 9_500, pnl: -3.2, exitReason: 'stop-loss' }),
  trade(2, { entryMinute: 0, side: 'long', entryPrice: 10_200, pnl: 12.5, exitReason: 'take-profit' }),
  trade(3, { entryMinute: 10, side: 'short', entryPrice: 100_000, pnl: 0.4, exitReason: 'liquidation' }),
  trade(4, {
    entryMinute: 30,
    side: 'long',
    entryPrice: 9_999,
    pnl: -40,
    heldMinutes: 1,
    exitReason: 'signal',
  }),
];

function renderTable(trades: readonly BacktestTrade[] = TRADES) {
  render(<TradeTable trades={trades} totalCount={trades.length} />);
  return { user: userEvent.setup(), table: screen.getByRole('table', { name: 'Trades' }) };
}

/** The "#" of every row on screen, top to bottom */
function visibleIds(table: HTMLElement): number[] {
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => Number(within(row).getAllByRole('cell')[0]?.textContent));
}

function header(table: HTMLElement, name: string): HTMLElement {
  return within(table).getByRole('columnheader', { name });
}

describe('trade table sorting', () => {
  it('opens in entry-time order, ascending, and says so on that header only', () => {
    const { table } = renderTable();
    expect(visibleIds(table)).toEqual([2, 3, 1, 4]);
    expect(header(table, 'Entry (UTC)').getAttribute('aria-sort')).toBe('ascending');
    expect(header(table, 'Entry (UTC)').textContent).toContain('▲');
    const others = within(table)
      .getAllByRole('columnheader')
      .filter((h) => h.getAttribute('aria-sort') !== null);
    expect(others).toHaveLength(1);
  });

  it('sorts a figure column numerically on click, and reverses it on the next click', async () => {
    const { user, table } = renderTable();
    await user.click(within(header(table, 'Entry price')).getByRole('button'));
    expect(visibleIds(table)).toEqual([1, 4, 2, 3]);
    expect(header(table, 'Entry price').getAttribute('aria-sort')).toBe('ascending');
    expect(header(table, 'Entry (UTC)').getAttribute('aria-sort')).toBeNull();

    await user.click(within(header(table, 'Entry price')).getByRole('button'));
    expect(visibleIds(table)).toEqual([3, 2, 4, 1]);
    expect(header(table, 'Entry price').getAttribute('aria-sort')).toBe('descending');
    expect(header(table, 'Entry price').textContent).toContain('▼');
  });

  it('sorts net PnL by value, losses below zero first', async () => {
    const { user, table } = renderTable();
    await user.click(within(header(table, 'Net PnL')).getByRole('button'));
    expect(visibleIds(table)).toEqual([4, 1, 3, 2]);
  });

  it('sorts exit times by time, not by entry', async () => {
    const { user, table } = renderTable();
    await user.click(within(header(table, 'Exit (UTC)')).getByRole('button'));
    // Exits: #2 at 0:30, #3 at 0:40, #4 at 0:31, #1 at 0:50
    expect(visibleIds(table)).toEqual([2, 4, 3, 1]);
  });

  it('sorts words alphabetically as they read, ties staying in entry order both ways', async () => {
    const { user, table } = renderTable();
    await user.click(within(header(table, 'Side')).getByRole('button'));
    // Long: #2 (0:00), #4 (0:30); Short: #3 (0:10), #1 (0:20), though #1 came first from the run
    expect(visibleIds(table)).toEqual([2, 4, 3, 1]);
    await user.click(within(header(table, 'Side')).getByRole('button'));
    expect(visibleIds(table)).toEqual([3, 1, 2, 4]);

    await user.click(within(header(table, 'Exit reason')).getByRole('button'));
    // Liquidation, Signal, Stop loss, Take profit
    expect(visibleIds(table)).toEqual([3, 4, 1, 2]);
  });

  it('sorts from the keyboard with Enter and Space on the header', async () => {
    const { user, table } = renderTable();
    within(header(table, 'Net PnL')).getByRole('button').focus();
    await user.keyboard('{Enter}');
    expect(visibleIds(table)).toEqual([4, 1, 3, 2]);
    await user.keyboard(' ');
    expect(visibleIds(table)).toEqual([2, 3, 1, 4]);
    expect(header(table, 'Net PnL').getAttribute('aria-sort')).toBe('descending');
  });

  it('keeps the column names screen readers announce (the arrow is not read)', () => {
    const { table } = renderTable();
    const names = [
      '#',
      'Side',
      'Entry (UTC)',
      'Entry price',
      'Exit (UTC)',
      'Exit price',
      'Quantity',
      'Fees',
      'Funding',
      'Net PnL',
      'Exit reason',
    ];
    for (const name of names) {
      expect(within(header(table, name)).getByRole('button', { name })).toBeTruthy();
    }
    expect(within(table).getAllByRole('columnheader')).toHaveLength(names.length);
  });

  it(`sorts every kept trade, not only the ${TRADE_PAGE_SIZE} on screen`, async () => {
    const many = Array.from({ length: TRADE_PAGE_SIZE * 2 }, (_, i) =>
      trade(i + 1, { entryMinute: i, pnl: i }),
    );
    const { user, table } = renderTable(many);
    expect(visibleIds(table)[0]).toBe(1);
    await user.click(within(header(table, 'Net PnL')).getByRole('button'));
    await user.click(within(header(table, 'Net PnL')).getByRole('button'));
    expect(visibleIds(table).slice(0, 3)).toEqual([50, 49, 48]);
    // "Show more" continues the sorted order
    await user.click(screen.getByRole('button', { name: `Show ${TRADE_PAGE_SIZE} more` }));
    expect(visibleIds(table).slice(-2)).toEqual([2, 1]);
  });
});

describe('trade table sorting cost', () => {
  it('sorts once per order, not again on "Show more" or when the page around it renders', async () => {
    // Every sort of the table goes through one typed-array sort of row indexes
    const sorts = vi.spyOn(Uint32Array.prototype, 'sort');
    const many = Array.from({ length: TRADE_PAGE_SIZE * 2 }, (_, i) => trade(i + 1, { entryMinute: i }));
    const { rerender } = render(<TradeTable trades={many} totalCount={many.length} />);
    const user = userEvent.setup();
    expect(sorts).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: `Show ${TRADE_PAGE_SIZE} more` }));
    rerender(<TradeTable trades={many} totalCount={many.length} />);
    expect(sorts).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Fees' }));
    expect(sorts).toHaveBeenCalledTimes(2);
    sorts.mockRestore();
  });
});
