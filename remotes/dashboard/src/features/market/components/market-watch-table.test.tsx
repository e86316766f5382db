import type { Ticker, TickerNotice } from '@kestrel/contracts';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { SymbolPrecision } from '../../../api/get-symbol-info';
import { MarketWatchTable } from './market-watch-table';

const AT = Date.UTC(2026, 0, 5, 12);

function ticker(symbol: string, lastPrice: string, changePercent: string, quoteVolume: string): Ticker {
  return {
    symbol,
    lastPrice,
    priceChange: '0',
    priceChangePercent: changePercent,
    highPrice: lastPrice,
    lowPrice: lastPrice,
    volume: '1',
    quoteVolume,
    openTime: AT - 86_400_000,
    closeTime: AT,
  };
}

const tickers = [
  ticker('BTCUSDT', '65000.10', '1.50', '9000000000'),
  ticker('ETHUSDT', '3200.55', '-2.25', '4000000000'),
  ticker('SOLUSDT', '150.123', '4.00', '2000000000'),
];
const precisions = new Map<string, SymbolPrecision>([
  ['BTCUSDT', { price: 1, quantity: 3 }],
  ['ETHUSDT', { price: 2, quantity: 3 }],
  ['SOLUSDT', { price: 3, quantity: 0 }],
]);

function renderTable(
  live: ReadonlyMap<string, TickerNotice> = new Map(),
  onSelect = vi.fn(),
  onRemove = vi.fn(),
) {
  const props = { tickers, precisions, selected: 'BTCUSDT', onSelect, onRemove };
  const view = render(<MarketWatchTable {...props} live={live} />);
  return {
    ...view,
    onSelect,
    onRemove,
    update: (next: ReadonlyMap<string, TickerNotice>) =>
      view.rerender(<MarketWatchTable {...props} live={next} />),
  };
}

/** The symbols in the order the table shows them */
function order(): string[] {
  const table = screen.getByRole('table', { name: 'Market watch' });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]?.textContent ?? '');
}

function row(symbol: string) {
  const table = screen.getByRole('table', { name: 'Market watch' });
  const found = within(table)
    .getAllByRole('row')
    .find((r) => within(r).queryByRole('button', { name: symbol }));
  if (!found) throw new Error(`no row for ${symbol}`);
  return found;
}

describe('the market watch', () => {
  it('lists the symbols by 24 h volume, largest first, with prices at each symbol’s precision', () => {
    renderTable();
    expect(order()).toEqual(['BTCUSDT', 'ETHUSDT', 'SOLUSDT']);
    expect(screen.getByRole('columnheader', { name: /24h vol/ }).getAttribute('aria-sort')).toBe(
      'descending',
    );
    expect(within(row('BTCUSDT')).getByText('65,000.1')).toBeTruthy();
    expect(within(row('SOLUSDT')).getByText('150.123')).toBeTruthy();
    expect(within(row('ETHUSDT')).getByText('-2.25%')).toBeTruthy();
    expect(within(row('SOLUSDT')).getByText('+4.00%')).toBeTruthy();
  });

  it('sorts by a column when its header is pressed, and flips on a second press', async () => {
    const user = userEvent.setup();
    renderTable();
    await user.click(screen.getByRole('button', { name: /24h %/ }));
    expect(order()).toEqual(['ETHUSDT', 'BTCUSDT', 'SOLUSDT']);
    expect(screen.getByRole('columnheader', { name: /24h %/ }).getAttribute('aria-sort')).toBe('ascending');
    await user.click(screen.getByRole('button', { name: /24h %/ }));
    expect(order()).toEqual(['SOLUSDT', 'BTCUSDT', 'ETHUSDT']);
    await user.click(screen.getByRole('button', { name: /^Symbol/ }));
    expect(order()).toEqual(['BTCUSDT', 'ETHUSDT', 'SOLUSDT']);
    await user.click(screen.getByRole('button', { name: /^Last/ }));
    expect(order()).toEqual(['SOLUSDT', 'ETHUSDT', 'BTCUSDT']);
  });

  it('applies a live push to its row and keeps the chosen order with the new figures', async () => {
    const user = userEvent.setup();
    const { update } = renderTable();
    await user.click(screen.getByRole('button', { name: /24h %/ }));
    expect(order()).toEqual(['ETHUSDT', 'BTCUSDT', 'SOLUSDT']);
    update(
      new Map([
        [
          'ETHUSDT',
          { symbol: 'ETHUSDT', lastPrice: '3400.00', priceChangePercent: '5.10', time: AT + 1_000 },
        ],
      ]),
    );
    expect(within(row('ETHUSDT')).getByText('3,400.00')).toBeTruthy();
    expect(within(row('ETHUSDT')).getByText('+5.10%')).toBeTruthy();
    expect(order()).toEqual(['BTCUSDT', 'SOLUSDT', 'ETHUSDT']);
  });

  it('ignores a push older than the ticker it would overwrite', () => {
    renderTable(
      new Map([
        [
          'BTCUSDT',
          { symbol: 'BTCUSDT', lastPrice: '60000.00', priceChangePercent: '-6.00', time: AT - 5_000 },
        ],
      ]),
    );
    expect(within(row('BTCUSDT')).getByText('65,000.1')).toBeTruthy();
  });

  it('picks the chart’s symbol with the symbol’s button, and marks the one shown', async () => {
    const user = userEvent.setup();
    const { onSelect } = renderTable();
    expect(screen.getByRole('button', { name: 'BTCUSDT' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'ETHUSDT' }).getAttribute('aria-pressed')).toBe('false');
    await user.click(screen.getByRole('button', { name: 'ETHUSDT' }));
    expect(onSelect).toHaveBeenCalledWith('ETHUSDT');
  });

  it('takes a symbol off the list with its row’s remove button, but never the last one', async () => {
    const user = userEvent.setup();
    const { onRemove, unmount } = renderTable();
    await user.click(screen.getByRole('button', { name: 'Remove SOLUSDT from the watch list' }));
    expect(onRemove).toHaveBeenCalledWith('SOLUSDT');
    unmount();
    render(
      <MarketWatchTable
        tickers={tickers.slice(0, 1)}
        live={new Map()}
        precisions={precisions}
        selected="BTCUSDT"
        onSelect={vi.fn()}
        onRemove={vi.fn()}
      />,
    );
    expect(screen.getByRole('button', { name: 'BTCUSDT' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Remove/ })).toBeNull();
  });
});
