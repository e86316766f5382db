import type { BotOrder } from '@kestrel/contracts/bots';
import { describe, expect, it } from 'vitest';
import { ladder, ladderDecimals, orderStatusWords, orderTypeWords } from './order-ladder';

const order = (id: string, side: 'BUY' | 'SELL', price: string | null, time = 0): BotOrder => ({
  clientOrderId: id,
  side,
  type: price === null ? 'STOP_MARKET' : 'LIMIT',
  price,
  quantity: '0.002',
  status: 'NEW',
  reduceOnly: false,
  time,
});

const shape = (rows: ReturnType<typeof ladder>) =>
  rows.map((r) => (r.kind === 'mark' ? `mark ${r.price}` : `${r.order.clientOrderId} ${r.order.price}`));

describe('the open-orders ladder', () => {
  it('puts the highest price first, unpriced orders on top, and the mark between the levels around it', () => {
    // As the server lists them: in the order they were placed
    const orders = [
      order('b1', 'BUY', '49000'),
      order('s1', 'SELL', '51000'),
      order('b2', 'BUY', '49500'),
      order('stop', 'SELL', null),
      order('s2', 'SELL', '50500'),
    ];
    expect(shape(ladder(orders, 50_000))).toEqual([
      'stop null',
      's1 51000',
      's2 50500',
      'mark 50000',
      'b2 49500',
      'b1 49000',
    ]);
  });

  it('puts a stop at its trigger, below the mark like the buys it guards', () => {
    const stop: BotOrder = {
      ...order('sl', 'SELL', null),
      type: 'STOP_MARKET',
      triggerPrice: '47500',
      closePosition: true,
      quantity: '0',
    };
    const orders = [order('tp', 'SELL', '50500'), order('so', 'BUY', '49000'), stop];
    expect(shape(ladder(orders, 50_000))).toEqual(['tp 50500', 'mark 50000', 'so 49000', 'sl null']);
    // Its trigger counts for the column's decimals like a price
    expect(ladderDecimals([{ ...stop, triggerPrice: '47500.25' }], null).price).toBe(2);
  });

  it('keeps orders at one price in the order they were placed; an order at the mark goes below it', () => {
    const orders = [order('late', 'BUY', '50000', 2), order('early', 'BUY', '50000', 1)];
    expect(shape(ladder(orders, 50_000))).toEqual(['mark 50000', 'early 50000', 'late 50000']);
  });

  it('shows the mark at the end when every order is above it, and no mark line without orders or a mark', () => {
    expect(shape(ladder([order('s', 'SELL', '51000')], 50_000))).toEqual(['s 51000', 'mark 50000']);
    expect(ladder([], 50_000)).toEqual([]);
    expect(shape(ladder([order('s', 'SELL', '51000')], null))).toEqual(['s 51000']);
  });

  it('says statuses and types in words', () => {
    expect(
      ['NEW', 'PENDING', 'NEXT_OPEN', 'PARTIALLY_FILLED', 'UNKNOWN', 'ODD'].map(orderStatusWords),
    ).toEqual([
      'Open',
      'Sending',
      'Fills at the next open',
      'Partly filled',
      'Unknown: being checked',
      'ODD',
    ]);
    expect(['LIMIT', 'STOP_MARKET', 'TRAILING_STOP_MARKET'].map(orderTypeWords)).toEqual([
      'Limit',
      'Stop market',
      'Trailing stop market',
    ]);
  });

  it('gives each column the most decimals any of its figures has, so digits line up', () => {
    const orders = [order('a', 'SELL', '60578'), order('b', 'SELL', '60283.8'), order('c', 'BUY', null)];
    expect(ladderDecimals(orders, 58_812)).toEqual({ price: 1, quantity: 3 });
    expect(ladderDecimals([order('a', 'SELL', '60578')], 58_812.25)).toEqual({ price: 2, quantity: 3 });
    expect(ladderDecimals([], null)).toEqual({ price: 0, quantity: 0 });
    // The exchange's pushed mark price has 8 decimals: it is shown to 2 past whole-number levels, never all 8
    expect(ladderDecimals([order('a', 'SELL', '66008')], 64_088.14830561)).toEqual({ price: 2, quantity: 3 });
    expect(ladderDecimals([order('a', 'SELL', '0.5123')], 0.51234567)).toEqual({ price: 4, quantity: 3 });
  });
});
