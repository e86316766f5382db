import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { OrderBook, type OrderBookProps } from './order-book';

const bids: [string, string][] = [
  ['64118.1', '0.500'],
  ['64117.9', '0.250'],
  ['64117.0', '1.000'],
  ['64110.0', '2.000'],
];
const asks: [string, string][] = [
  ['64118.2', '0.100'],
  ['64118.9', '0.200'],
  ['64119.1', '0.400'],
  ['64125.0', '1.000'],
];

function renderBook(props: Partial<OrderBookProps> = {}) {
  const all: OrderBookProps = {
    symbol: 'BTCUSDT',
    bids,
    asks,
    tickSize: '0.10',
    baseAsset: 'BTC',
    status: 'live',
    onPrice: vi.fn(),
    ...props,
  };
  const view = render(<OrderBook {...all} />);
  return {
    ...view,
    props: all,
    update: (next: Partial<OrderBookProps>) => view.rerender(<OrderBook {...all} {...next} />),
  };
}

/** Each shown row of a side as its cells' text, top to bottom */
function side(name: 'Asks' | 'Bids'): string[][] {
  const table = screen.getByRole('table', { name });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent ?? ''),
    );
}

describe('the order book', () => {
  it('shows asks worst first above the spread and bids best first below, with running totals', () => {
    renderBook();
    const book = screen.getByRole('region', { name: 'Order book' });
    expect(
      within(book)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Price (USDT)', 'Size (BTC)', 'Total (BTC)', 'Price (USDT)', 'Size (BTC)', 'Total (BTC)']);
    expect(side('Asks')).toEqual([
      ['64,125.0', '1.000', '1.700'],
      ['64,119.1', '0.400', '0.700'],
      ['64,118.9', '0.200', '0.300'],
      ['64,118.2', '0.100', '0.100'],
    ]);
    expect(side('Bids')).toEqual([
      ['64,118.1', '0.500', '0.500'],
      ['64,117.9', '0.250', '0.750'],
      ['64,117.0', '1.000', '1.750'],
      ['64,110.0', '2.000', '3.750'],
    ]);
    expect(within(book).getByText('64,118.15')).toBeTruthy();
    expect(within(book).getByText(/^Spread/).textContent).toBe('Spread 0.1 (0.0002%)');
  });

  it('colours the sides and draws each row’s depth against the deeper side', () => {
    const { container } = renderBook();
    const ask = screen.getByRole('button', { name: 'Use price 64,118.2' });
    const bid = screen.getByRole('button', { name: 'Use price 64,118.1' });
    expect(ask.className).toContain('text-destructive');
    expect(bid.className).toContain('text-success');
    const bars = [...container.querySelectorAll<HTMLElement>('span[aria-hidden="true"]')];
    // Asks top to bottom, then bids; the deepest total (3.750 bids) is the full width
    expect(bars.map((b) => b.style.transform)).toEqual([
      `scaleX(${1700 / 3750})`,
      `scaleX(${700 / 3750})`,
      `scaleX(${300 / 3750})`,
      `scaleX(${100 / 3750})`,
      `scaleX(${500 / 3750})`,
      `scaleX(${750 / 3750})`,
      `scaleX(${1750 / 3750})`,
      'scaleX(1)',
    ]);
    expect(bars[0]?.className).toContain('bg-destructive/10');
    expect(bars[7]?.className).toContain('bg-success/10');
  });

  it('hands on the bucket’s price string when its price is pressed', async () => {
    const user = userEvent.setup();
    const { props } = renderBook();
    await user.click(screen.getByRole('button', { name: 'Use price 64,118.2' }));
    expect(props.onPrice).toHaveBeenLastCalledWith('64118.2');
    screen.getByRole('button', { name: 'Use price 64,117.0' }).focus();
    await user.keyboard('{Enter}');
    expect(props.onPrice).toHaveBeenLastCalledWith('64117.0');
  });

  it('regroups when another price step is picked: bids down, asks up', async () => {
    const user = userEvent.setup();
    const { props } = renderBook();
    const grouping = screen.getByRole('combobox', { name: 'Price grouping' });
    expect(
      within(grouping)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['0.1', '1', '5', '10', '100']);
    // By the option's label, the price step: its value is the multiple of the tick
    const step = (label: string) => within(grouping).getByRole('option', { name: label });
    await user.selectOptions(grouping, step('1'));
    expect(side('Asks')).toEqual([
      ['64,125.0', '1.000', '1.700'],
      ['64,120.0', '0.400', '0.700'],
      ['64,119.0', '0.300', '0.300'],
    ]);
    expect(side('Bids')).toEqual([
      ['64,118.0', '0.500', '0.500'],
      ['64,117.0', '1.250', '1.750'],
      ['64,110.0', '2.000', '3.750'],
    ]);
    await user.click(screen.getByRole('button', { name: 'Use price 64,119.0' }));
    expect(props.onPrice).toHaveBeenLastCalledWith('64119.0');
    await user.selectOptions(grouping, step('10'));
    expect(side('Bids').map((r) => r[0])).toEqual(['64,110.0']);
  });

  it('starts another symbol at one tick', async () => {
    const user = userEvent.setup();
    const { update } = renderBook();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Price grouping' }), '10');
    update({
      symbol: 'ETHUSDT',
      baseAsset: 'ETH',
      tickSize: '0.01',
      bids: [['3200.55', '1.5']],
      asks: [['3200.56', '2.0']],
    });
    expect((screen.getByRole('combobox', { name: 'Price grouping' }) as HTMLSelectElement).value).toBe('1');
    expect(side('Bids')).toEqual([['3,200.55', '1.5', '1.5']]);
    expect(screen.getAllByRole('columnheader', { name: 'Size (ETH)' })).toHaveLength(2);
  });

  it('shows no more than `rows` buckets a side, and keeps a short side in place', () => {
    renderBook({ rows: 2, asks: asks.slice(0, 1) });
    expect(side('Asks')).toEqual([['64,118.2', '0.100', '0.100']]);
    expect(side('Bids').map((r) => r[0])).toEqual(['64,118.1', '64,117.9']);
    // The ask side's missing row is blank space above it, so the spread line stays where it was
    const spacer = screen.getByRole('table', { name: 'Asks' }).previousElementSibling;
    expect(spacer instanceof HTMLElement && spacer.style.height).toBe('calc(1 * var(--book-row))');
    expect(screen.getByRole('table', { name: 'Bids' }).nextElementSibling).toBeNull();
  });

  it('keeps a bucket’s row across pushes, keyed by its price', () => {
    const { update } = renderBook();
    const before = screen.getByRole('button', { name: 'Use price 64,117.0' });
    update({ bids: [['64118.3', '0.100'], ...bids], onPrice: vi.fn() });
    expect(side('Bids')[0]).toEqual(['64,118.3', '0.100', '0.100']);
    expect(screen.getByRole('button', { name: 'Use price 64,117.0' })).toBe(before);
  });

  it('shows prices as plain text when nothing takes them', () => {
    renderBook({ onPrice: undefined });
    expect(screen.queryByRole('button')).toBeNull();
    expect(side('Bids')[0]?.[0]).toBe('64,118.1');
  });

  it('says when it loads, fails, is empty or is not live', () => {
    const { update } = renderBook({ status: 'loading' });
    expect(screen.getByRole('status').textContent).toContain('Loading the order book…');
    expect(screen.queryByRole('table')).toBeNull();

    update({ status: 'error', error: 'socket closed' });
    expect(screen.getByRole('alert').textContent).toBe('The order book could not be loaded: socket closed');
    expect(screen.queryByRole('table')).toBeNull();

    update({ status: 'live', bids: [], asks: [] });
    expect(screen.getByText('No orders on the book.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();

    update({ status: 'stale' });
    expect(screen.getByRole('status').textContent).toBe('Reconnecting… the book shown is not live.');
    expect(side('Bids')[0]?.[0]).toBe('64,118.1');
  });

  it('shows one side alone without a spread', () => {
    renderBook({ asks: [] });
    expect(side('Asks')).toEqual([]);
    expect(side('Bids')).toHaveLength(4);
    expect(screen.getByText(/^Spread/).textContent).toBe('Spread —');
  });
});
