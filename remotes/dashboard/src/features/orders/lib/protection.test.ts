import type { FuturesPosition } from '@kestrel/contracts';
import { describe, expect, it } from 'vitest';
import { BTCUSDT_LONG, conditionalOrder } from '../../../test/orders';
import {
  describeProtection,
  protectionChanges,
  protectionError,
  protectionOf,
  protectionOrder,
} from './protection';

const long = BTCUSDT_LONG;
const short: FuturesPosition = { ...long, amount: '-0.010' };
const conditional = conditionalOrder;

describe("a position's take-profit and stop-loss", () => {
  it("finds them among the open orders: close-position conditional orders on the position's closing side", () => {
    const sl = conditional({ orderId: '1' });
    const tp = conditional({ orderId: '2', type: 'TAKE_PROFIT_MARKET', triggerPrice: '70000' });
    const other = conditional({ orderId: '3', side: 'BUY' });
    const partial = conditional({ orderId: '4', closePosition: false });
    expect(protectionOf(long, [sl, tp, other, partial])).toEqual({ takeProfit: tp, stopLoss: sl });
    expect(protectionOf(short, [sl, tp])).toEqual({});
  });

  it('sets each as a close-position order at the mark price, on the side that closes', () => {
    expect(protectionOrder(long, 'stopLoss', '60000.0')).toEqual({
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'STOP_MARKET',
      triggerPrice: '60000.0',
      closePosition: true,
      workingType: 'MARK_PRICE',
    });
    expect(protectionOrder({ ...short, positionSide: 'SHORT' }, 'takeProfit', '60000.0')).toMatchObject({
      side: 'BUY',
      type: 'TAKE_PROFIT_MARKET',
      positionSide: 'SHORT',
    });
  });

  it('refuses a trigger on the side of the mark where it would fire at once, or off the tick', () => {
    expect(protectionError(long, 'takeProfit', '64000', undefined)).toBe(
      "A long's take-profit must be above the mark price",
    );
    expect(protectionError(long, 'stopLoss', '66000', undefined)).toBe(
      "A long's stop-loss must be below the mark price",
    );
    expect(protectionError(short, 'stopLoss', '66000', undefined)).toBeUndefined();
    expect(protectionError(long, 'stopLoss', '', undefined)).toBeUndefined();
    expect(protectionError(long, 'stopLoss', 'abc', undefined)).toMatch(/^Enter a price/);
  });

  it('turns what was typed into the changes to make, and says them in one sentence', () => {
    const sl = conditional({});
    const changes = protectionChanges(
      { stopLoss: sl },
      { takeProfit: '70000', stopLoss: '58000', trailingStop: '' },
    );
    expect(changes).toEqual([
      { kind: 'takeProfit', action: 'set', value: '70000' },
      { kind: 'stopLoss', action: 'set', value: '58000', replaces: sl },
    ]);
    expect(describeProtection(long, changes, { price: 1 })).toBe(
      'BTCUSDT long: take-profit at 70,000.0, stop-loss moved to 58,000.0; each closes the whole position at market when the mark price reaches it',
    );
    expect(
      protectionChanges({ stopLoss: sl }, { takeProfit: '', stopLoss: '60000.0', trailingStop: '' }),
    ).toEqual([]);
    expect(
      describeProtection(
        long,
        protectionChanges({ stopLoss: sl }, { takeProfit: '', stopLoss: '', trailingStop: '' }),
        {},
      ),
    ).toBe('BTCUSDT long: stop-loss removed');
  });

  it('trails a reduce-only stop of the position size at a callback rate in Binance’s range', () => {
    expect(protectionOrder(long, 'trailingStop', '1.5')).toEqual({
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'TRAILING_STOP_MARKET',
      workingType: 'MARK_PRICE',
      quantity: '0.010',
      callbackRate: '1.5',
      reduceOnly: true,
    });
    expect(protectionError(long, 'trailingStop', '12', undefined)).toBe(
      'Enter a callback rate from 0.1 to 10 (%), or leave it empty',
    );
    expect(protectionError(long, 'trailingStop', '0.5', undefined)).toBeUndefined();
    const trailing = conditional({ type: 'TRAILING_STOP_MARKET', closePosition: false, callbackRate: '1.5' });
    expect(protectionOf(long, [trailing])).toEqual({ trailingStop: trailing });
    const changes = protectionChanges(
      { trailingStop: trailing },
      { takeProfit: '', stopLoss: '', trailingStop: '2' },
    );
    expect(describeProtection(long, changes, {})).toBe(
      'BTCUSDT long: trailing stop 2 % behind the best mark price; it closes the whole position at market when the mark price reaches it',
    );
  });

  it('leaves a kind that was not asked about as it is (a trailing stop whose rate the exchange does not report)', () => {
    const trailing = conditional({ type: 'TRAILING_STOP_MARKET', closePosition: false, callbackRate: null });
    expect(protectionChanges({ trailingStop: trailing }, { takeProfit: '70000', stopLoss: '' })).toEqual([
      { kind: 'takeProfit', action: 'set', value: '70000' },
    ]);
    expect(protectionChanges({ trailingStop: trailing }, { trailingStop: '' })).toEqual([
      { kind: 'trailingStop', action: 'remove', order: trailing },
    ]);
  });
});
