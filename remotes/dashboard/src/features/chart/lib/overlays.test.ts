import type { FuturesOrder, FuturesPosition, FuturesTrade } from '@kestrel/contracts';
import { describe, expect, it } from 'vitest';
import type { Candle } from './candles';
import { fillMarkers, labelGutter, orderLines, positionLines } from './overlays';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 5);

function position(overrides: Partial<FuturesPosition>): FuturesPosition {
  return {
    symbol: 'BTCUSDT',
    positionSide: 'BOTH',
    amount: '0.040',
    entryPrice: '58810.8',
    markPrice: '58815.5',
    unrealizedPnl: '0.19',
    liquidationPrice: '44120.3',
    notional: '2352.62',
    initialMargin: '235.26',
    maintenanceMargin: '9.41',
    updatedAt: T0,
    ...overrides,
  };
}

function order(overrides: Partial<FuturesOrder>): FuturesOrder {
  return {
    orderId: '1',
    clientOrderId: 'c1',
    kind: 'order',
    symbol: 'BTCUSDT',
    side: 'BUY',
    type: 'LIMIT',
    status: 'NEW',
    price: '57047.2',
    averagePrice: '0',
    quantity: '0.010',
    executedQuantity: '0',
    timeInForce: 'GTC',
    reduceOnly: false,
    positionSide: 'BOTH',
    triggerPrice: '0',
    workingType: null,
    closePosition: false,
    activationPrice: null,
    callbackRate: null,
    triggeredOrderId: null,
    goodTillDate: null,
    updatedAt: T0,
    ...overrides,
  };
}

function trade(time: number, side: 'BUY' | 'SELL'): FuturesTrade {
  return {
    id: String(time),
    orderId: '1',
    symbol: 'BTCUSDT',
    side,
    positionSide: 'BOTH',
    price: '58000',
    quantity: '0.010',
    quoteQuantity: '580',
    realizedPnl: '0',
    commission: '0.23',
    commissionAsset: 'USDT',
    maker: false,
    time,
  };
}

const candles: Candle[] = [0, 1, 2].map((i) => ({
  openTime: T0 + i * HOUR,
  closeTime: T0 + (i + 1) * HOUR - 1,
  open: 1,
  high: 1,
  low: 1,
  close: 1,
  volume: 1,
}));

describe('chart overlays', () => {
  it('draw the open position’s entry and liquidation, and only of the chart’s symbol', () => {
    const lines = positionLines(
      [position({}), position({ symbol: 'ETHUSDT', entryPrice: '3000' })],
      'BTCUSDT',
    );
    expect(lines).toEqual([
      { kind: 'entry', price: 58810.8, title: 'Long 0.040' },
      { kind: 'liquidation', price: 44120.3, title: 'Liq.' },
    ]);
  });

  it('leave out a liquidation price of 0 (the exchange cannot liquidate the position) and flat positions', () => {
    expect(positionLines([position({ liquidationPrice: '0' })], 'BTCUSDT').map((l) => l.kind)).toEqual([
      'entry',
    ]);
    expect(positionLines([position({ amount: '0' })], 'BTCUSDT')).toEqual([]);
  });

  it('name the side in hedge mode, where a long and a short can both be open', () => {
    const lines = positionLines(
      [
        position({ positionSide: 'LONG' }),
        position({ positionSide: 'SHORT', amount: '-0.010', entryPrice: '60000' }),
      ],
      'BTCUSDT',
    );
    expect(lines.map((l) => l.title)).toEqual(['Long 0.040', 'Liq. Long', 'Short 0.010', 'Liq. Short']);
  });

  it('put a limit order at its price and a stop or take-profit at its trigger', () => {
    const lines = orderLines(
      [
        order({}),
        order({
          kind: 'conditional',
          side: 'SELL',
          type: 'TAKE_PROFIT_MARKET',
          price: '0',
          triggerPrice: '60574.4',
          quantity: '0',
          closePosition: true,
        }),
        order({ symbol: 'ETHUSDT' }),
      ],
      'BTCUSDT',
    );
    expect(lines).toEqual([
      { kind: 'buy', price: 57047.2, title: 'Limit buy 0.010' },
      { kind: 'sell', price: 60574.4, title: 'TP sell close' },
    ]);
  });

  it('sum the fills of one side within a bar into one marker at their average price', () => {
    const [marker, ...rest] = fillMarkers(
      [
        { ...trade(T0 + 60_000, 'BUY'), price: '100', quantity: '1' },
        { ...trade(T0 + 120_000, 'BUY'), price: '130', quantity: '2' },
      ],
      candles,
    );
    expect(rest).toEqual([]);
    expect(marker).toEqual({ time: T0, side: 'BUY', price: 120, quantity: 3 });
  });

  it('place each fill on the bar it happened in, oldest first, leaving out fills before the first bar', () => {
    const markers = fillMarkers(
      [trade(T0 + 2 * HOUR + 5, 'SELL'), trade(T0 + HOUR + 30 * 60_000, 'BUY'), trade(T0 - 1, 'BUY')],
      candles,
    );
    expect(markers.map((m) => [m.time, m.side])).toEqual([
      [T0 + HOUR, 'BUY'],
      [T0 + 2 * HOUR, 'SELL'],
    ]);
  });

  it('keeps a gutter as wide as the widest title beside the price axis, and none when no line has a title', () => {
    const measure = (text: string) => text.length * 7;
    // "Limit sell 0.010" is 16 characters: 112 px, and the title box around it
    expect(labelGutter(['Long 0.040', 'Liq.', 'Limit sell 0.010'], measure)).toBe(130);
    expect(labelGutter(['', ''], measure)).toBe(0);
    expect(labelGutter([], measure)).toBe(0);
  });
});
