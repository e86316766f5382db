import type { FuturesOrder, FuturesPosition } from '@kestrel/contracts';
import { describe, expect, it } from 'vitest';
import {
  closeOrder,
  describeCancel,
  describeClose,
  describeLeverage,
  describeOrder,
  partOfPosition,
  precisionOf,
} from './describe-action';

const p = precisionOf({ tickSize: '0.10', stepSize: '0.001' });
const long: FuturesPosition = {
  symbol: 'BTCUSDT',
  positionSide: 'BOTH',
  amount: '0.01',
  entryPrice: '65000',
  markPrice: '65100',
  unrealizedPnl: '1',
  liquidationPrice: '40000',
  notional: '651',
  initialMargin: '32.55',
  maintenanceMargin: '2.6',
  updatedAt: 0,
};

describe('what an action will do, in words', () => {
  it('closes a long at market with a reduce-only sell of its whole size', () => {
    const order = closeOrder(long, { type: 'MARKET' });
    expect(order).toEqual({
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'MARKET',
      quantity: '0.01',
      reduceOnly: true,
    });
    expect(describeClose(long, order, p)).toBe('Close 0.010 BTCUSDT long at market, reduce-only');
  });

  it('closes a short with a limit buy, and in hedge mode by position side instead of reduce-only', () => {
    const short = { ...long, amount: '-0.5', positionSide: 'SHORT' as const };
    const order = closeOrder(short, { type: 'LIMIT', price: '64000.0' });
    expect(order).toEqual({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.5',
      price: '64000.0',
      timeInForce: 'GTC',
      positionSide: 'SHORT',
    });
    expect(describeClose(short, order, p)).toBe(
      'Close 0.500 BTCUSDT short with a limit buy at 64,000.0, reduce-only',
    );
  });

  it('describes new orders, leverage and cancels with the symbol precision', () => {
    expect(
      describeOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '50000' }, p),
    ).toBe('Buy 0.010 BTCUSDT at 50,000.0, limit, good till canceled');
    expect(
      describeOrder(
        {
          symbol: 'BTCUSDT',
          side: 'SELL',
          type: 'STOP_MARKET',
          quantity: '0.01',
          triggerPrice: '60000',
          reduceOnly: true,
        },
        p,
      ),
    ).toBe('Sell 0.010 BTCUSDT at market once the last price reaches 60,000.0 (stop), reduce-only');
    const trailing = {
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'TRAILING_STOP_MARKET',
      quantity: '0.01',
      callbackRate: '1.5',
    } as const;
    expect(describeOrder(trailing, p)).toBe(
      'Sell 0.010 BTCUSDT at market once the price comes back 1.5 % from its best (trailing stop)',
    );
    expect(describeOrder({ ...trailing, activationPrice: '66000' }, p)).toBe(
      'Sell 0.010 BTCUSDT at market once the price comes back 1.5 % from its best after reaching 66,000.0 (trailing stop)',
    );
    expect(describeLeverage('BTCUSDT', 20, 5)).toBe('Set BTCUSDT leverage from 20x to 5x');
    const order = {
      orderId: '1',
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      kind: 'order',
      quantity: '0.010',
      price: '50000',
      triggerPrice: '0',
      closePosition: false,
    } as FuturesOrder;
    expect(describeCancel(order, p)).toBe('Cancel the buy limit order for 0.010 BTCUSDT at 50,000.0');
  });

  it('closes a part of a position: the share rounded down to the lot step, said against the whole', () => {
    expect(partOfPosition('0.010', 25, '0.001')).toBe('0.002');
    expect(partOfPosition('-0.010', 30, '0.001')).toBe('0.003');
    expect(partOfPosition('0.003', 25, '0.001')).toBe('0.000');
    expect(partOfPosition('-0.010', 100, '0.001')).toBe('0.010');
    const half = closeOrder(long, { type: 'MARKET' }, '0.005');
    expect(half).toMatchObject({ side: 'SELL', quantity: '0.005', reduceOnly: true });
    expect(describeClose(long, half, p)).toBe('Close 0.005 of 0.010 BTCUSDT long at market, reduce-only');
  });
});
