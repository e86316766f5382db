import { describe, expect, it } from 'vitest';
import { CreateOrderRequestSchema, HistoryQuerySchema, SetLeverageRequestSchema } from './futures';

/** Each refused field with its message, as the server copies them into the 400 answer */
function issues(input: Record<string, unknown>) {
  const result = CreateOrderRequestSchema.safeParse({ symbol: 'BTCUSDT', side: 'BUY', ...input });
  return result.error?.issues.map((i) => [i.path.join('.'), i.message]) ?? [];
}

describe('CreateOrderRequestSchema (POST /api/futures/orders/create)', () => {
  it('accepts a plain LIMIT and MARKET order and upper-cases the symbol', () => {
    const limit = { symbol: 'btcusdt', side: 'SELL', type: 'LIMIT', quantity: '0.01', price: '65000.5' };
    expect(CreateOrderRequestSchema.parse(limit)).toEqual({ ...limit, symbol: 'BTCUSDT' });
    expect(issues({ type: 'MARKET', quantity: '1' })).toEqual([]);
  });

  it('wants a price for LIMIT, STOP and TAKE_PROFIT, and none for MARKET', () => {
    expect(issues({ type: 'LIMIT', quantity: '1' })).toEqual([
      ['price', 'price is required for a LIMIT order'],
    ]);
    expect(issues({ type: 'MARKET', quantity: '1', price: '10' })).toEqual([
      ['price', 'a MARKET order takes no price'],
    ]);
    expect(issues({ type: 'STOP', quantity: '1', triggerPrice: '9' })).toEqual([
      ['price', 'price is required for a STOP order'],
    ]);
  });

  it('wants a trigger price for stops and take-profits, and none for plain orders', () => {
    expect(issues({ type: 'STOP_MARKET', quantity: '1' })).toEqual([
      ['triggerPrice', 'triggerPrice is required for a STOP_MARKET order'],
    ]);
    expect(issues({ type: 'MARKET', quantity: '1', triggerPrice: '9' })).toEqual([
      ['triggerPrice', 'a MARKET order takes no triggerPrice'],
    ]);
  });

  it('wants a callback rate of 0.1 to 10 % for a trailing stop, and only there', () => {
    expect(issues({ type: 'TRAILING_STOP_MARKET', quantity: '1' })).toEqual([
      ['callbackRate', 'callbackRate is required for a TRAILING_STOP_MARKET order'],
    ]);
    expect(issues({ type: 'TRAILING_STOP_MARKET', quantity: '1', callbackRate: '10.5' })).toEqual([
      ['callbackRate', 'callbackRate must be between 0.1 and 10 (percent)'],
    ]);
    expect(issues({ type: 'TRAILING_STOP_MARKET', quantity: '1', callbackRate: '0.1' })).toEqual([]);
    expect(issues({ type: 'MARKET', quantity: '1', activationPrice: '100' })).toEqual([
      ['callbackRate', 'callbackRate and activationPrice are only for a TRAILING_STOP_MARKET order'],
    ]);
  });

  it('closes a whole position only with a STOP_MARKET or TAKE_PROFIT_MARKET and no quantity', () => {
    expect(issues({ type: 'STOP_MARKET', triggerPrice: '9', closePosition: true })).toEqual([]);
    expect(issues({ type: 'STOP_MARKET', triggerPrice: '9', closePosition: true, quantity: '1' })).toEqual([
      ['quantity', 'closePosition closes the whole position: send no quantity'],
    ]);
    expect(issues({ type: 'LIMIT', price: '9', closePosition: true })).toEqual([
      ['closePosition', 'closePosition is only for STOP_MARKET and TAKE_PROFIT_MARKET orders'],
    ]);
    expect(issues({ type: 'MARKET' })).toEqual([
      ['quantity', 'quantity is required (or closePosition for a STOP_MARKET / TAKE_PROFIT_MARKET order)'],
    ]);
  });

  it('pairs timeInForce GTD with a goodTillDate on LIMIT orders only', () => {
    const gtd = { type: 'LIMIT', quantity: '1', price: '10', timeInForce: 'GTD' };
    expect(issues(gtd)).toEqual([['goodTillDate', 'goodTillDate is required with timeInForce GTD']]);
    expect(issues({ ...gtd, goodTillDate: 1_800_000_000_000 })).toEqual([]);
    expect(issues({ ...gtd, timeInForce: 'GTC', goodTillDate: 1_800_000_000_000 })).toEqual([
      ['goodTillDate', 'goodTillDate is only for timeInForce GTD'],
    ]);
  });

  it('refuses a quantity that is zero or not a plain decimal', () => {
    expect(issues({ type: 'MARKET', quantity: '0' })).toEqual([['quantity', 'must be greater than 0']]);
    expect(issues({ type: 'MARKET', quantity: '1e3' })).toEqual([
      ['quantity', 'must be a decimal string such as "0.01"'],
    ]);
  });

  it('keeps trigger options off plain orders', () => {
    expect(issues({ type: 'MARKET', quantity: '1', workingType: 'MARK_PRICE', priceProtect: true })).toEqual([
      ['workingType', 'workingType is only for conditional orders'],
      ['priceProtect', 'priceProtect is only for conditional orders'],
    ]);
  });
});

describe('HistoryQuerySchema (GET /api/futures/history/{orders,trades})', () => {
  it('defaults the limit to 100, as the spec says, and reads it from a query string', () => {
    expect(HistoryQuerySchema.parse({})).toEqual({ limit: 100 });
    expect(HistoryQuerySchema.parse({ symbol: 'ethusdt', limit: '1000' })).toEqual({
      symbol: 'ETHUSDT',
      limit: 1000,
    });
    expect(HistoryQuerySchema.safeParse({ limit: '1001' }).error?.issues[0]?.message).toBe(
      'limit must be at most 1000',
    );
  });
});

describe('SetLeverageRequestSchema', () => {
  it('takes leverage 1 to 125 and names the range otherwise', () => {
    expect(SetLeverageRequestSchema.parse({ symbol: 'BTCUSDT', leverage: '125' }).leverage).toBe(125);
    for (const leverage of [0, 126]) {
      const result = SetLeverageRequestSchema.safeParse({ symbol: 'BTCUSDT', leverage });
      expect(result.error?.issues[0]?.message).toBe('leverage must be between 1 and 125');
    }
  });
});
