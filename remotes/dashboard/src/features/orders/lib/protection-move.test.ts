import { describe, expect, it } from 'vitest';
import { BTCUSDT_LONG, conditionalOrder } from '../../../test/orders';
import { describeMove, movableProtections } from './protection-move';

const long = BTCUSDT_LONG;
const conditional = conditionalOrder;

describe('the movable lines of a symbol', () => {
  const sl = conditional({ orderId: 'sl' });
  const tp = conditional({ orderId: 'tp', type: 'TAKE_PROFIT_MARKET', triggerPrice: '70000' });
  const trail = conditional({ orderId: 'trail', type: 'TRAILING_STOP_MARKET', closePosition: false });
  const limit = conditional({ orderId: 'limit', kind: 'order', type: 'LIMIT', price: '66000' });

  it("are its position's take-profit and stop-loss, not its trailing stop nor its other orders", () => {
    const movable = movableProtections([long], [sl, tp, trail, limit], 'BTCUSDT');
    expect([...movable.keys()].sort()).toEqual(['sl', 'tp']);
    expect(movable.get('sl')).toMatchObject({ kind: 'stopLoss', label: 'SL', order: sl, position: long });
    expect(movable.get('tp')).toMatchObject({ kind: 'takeProfit', label: 'TP' });
  });

  it('are none for another symbol, or once the position is closed', () => {
    expect(movableProtections([long], [sl, tp], 'ETHUSDT').size).toBe(0);
    expect(movableProtections([{ ...long, amount: '0' }], [sl, tp], 'BTCUSDT').size).toBe(0);
  });

  it('say whose they are when both sides of a hedged symbol are open', () => {
    const hedgedLong = { ...long, positionSide: 'LONG' as const };
    const hedgedShort = { ...long, positionSide: 'SHORT' as const, amount: '-0.010' };
    const longSl = conditional({ orderId: 'long-sl', positionSide: 'LONG' });
    const shortSl = conditional({
      orderId: 'short-sl',
      positionSide: 'SHORT',
      side: 'BUY',
      triggerPrice: '70000',
    });
    const movable = movableProtections([hedgedLong, hedgedShort], [longSl, shortSl], 'BTCUSDT');
    expect(movable.get('long-sl')?.label).toBe('SL long');
    expect(movable.get('short-sl')?.label).toBe('SL short');
  });
});

describe('describeMove', () => {
  it('says which trigger moves, from where to where, and what it then does', () => {
    expect(describeMove(long, 'stopLoss', '58000', '59500.0', 1)).toBe(
      "Move the BTCUSDT long's stop-loss from 58,000.0 to 59,500.0: it closes the whole position at market when the mark price reaches it",
    );
  });
});
