import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { type TapeTrade, TradesTape, type TradesTapeProps } from './trades-tape';

const AT = Date.UTC(2026, 0, 5, 14, 5, 9);

// Oldest first, as the pushes bring them
const trades: TapeTrade[] = [
  { id: 101, price: '64118.1', quantity: '0.500', buyerMaker: true, time: AT },
  { id: 102, price: '64118.2', quantity: '0.012', buyerMaker: false, time: AT + 1_000 },
  { id: 103, price: '64119.0', quantity: '1.250', buyerMaker: false, time: AT + 61_000 },
];

function renderTape(props: Partial<TradesTapeProps> = {}) {
  const all: TradesTapeProps = {
    trades,
    pricePrecision: 1,
    baseAsset: 'BTC',
    status: 'live',
    onPrice: vi.fn(),
    ...props,
  };
  const view = render(<TradesTape {...all} />);
  return {
    ...view,
    props: all,
    update: (next: Partial<TradesTapeProps>) => view.rerender(<TradesTape {...all} {...next} />),
  };
}

function rows() {
  return within(screen.getByRole('table', { name: 'Recent trades' }))
    .getAllByRole('row')
    .slice(1);
}

const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((c) => c.textContent ?? '');

describe('the trades tape', () => {
  it('lists the newest trade first with its price, size and UTC time', () => {
    renderTape();
    expect(screen.getByRole('region', { name: 'Recent trades' })).toBeTruthy();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Price',
      'Size (BTC)',
      'Time (UTC)',
    ]);
    expect(rows().map(cells)).toEqual([
      ['64,119.0 Buy', '1.250', '14:06:10'],
      ['64,118.2 Buy', '0.012', '14:05:10'],
      ['64,118.1 Sell', '0.500', '14:05:09'],
    ]);
  });

  it('colours a taker sell red and a taker buy green, and says which it was', () => {
    renderTape();
    const [buy, , sell] = rows();
    if (!buy || !sell) throw new Error('rows missing');
    expect(within(sell).getByRole('button', { name: 'Use price 64,118.1' }).className).toContain(
      'text-destructive',
    );
    expect(within(sell).getByText('Sell')).toBeTruthy();
    expect(within(buy).getByRole('button', { name: 'Use price 64,119.0' }).className).toContain(
      'text-success',
    );
    expect(within(buy).getByText('Buy')).toBeTruthy();
  });

  it('hands on the trade’s price string when its price is pressed', async () => {
    const user = userEvent.setup();
    const { props } = renderTape();
    await user.click(screen.getByRole('button', { name: 'Use price 64,118.2' }));
    expect(props.onPrice).toHaveBeenCalledWith('64118.2');
  });

  it('keeps the latest `rows` trades as new ones arrive', () => {
    const { update } = renderTape({ rows: 2 });
    expect(rows().map((r) => cells(r)[2])).toEqual(['14:06:10', '14:05:10']);
    update({
      rows: 2,
      trades: [
        ...trades,
        { id: 104, price: '64117.5', quantity: '0.100', buyerMaker: true, time: AT + 62_000 },
      ],
    });
    expect(rows().map((r) => cells(r)[0])).toEqual(['64,117.5 Sell', '64,119.0 Buy']);
  });

  it('says when it loads, fails, has no trades or is not live', () => {
    const { update } = renderTape({ status: 'loading' });
    expect(screen.getByRole('status').textContent).toContain('Loading recent trades…');

    update({ status: 'error', error: 'socket closed' });
    expect(screen.getByRole('alert').textContent).toBe('Recent trades could not be loaded: socket closed');
    expect(screen.queryByRole('table')).toBeNull();

    update({ status: 'live', trades: [] });
    expect(screen.getByText('No trades yet.')).toBeTruthy();

    update({ status: 'stale' });
    expect(screen.getByRole('status').textContent).toBe('Reconnecting… these trades are not live.');
    expect(rows()).toHaveLength(3);
  });
});
