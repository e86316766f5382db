import { describe, expect, it } from 'vitest';
import { BTCUSDT_INFO } from '../../../test/symbols';
import {
  defaultTicketValues,
  previewRequest,
  quantityForValue,
  type TicketValues,
  ticketSchema,
  valueForMarginShare,
} from './order-ticket';

function check(values: Partial<TicketValues>) {
  return ticketSchema(BTCUSDT_INFO).safeParse({ ...defaultTicketValues('BTCUSDT'), ...values });
}

function messages(values: Partial<TicketValues>): Record<string, string> {
  const result = check(values);
  if (result.success) return {};
  // The first message of each field, as the form shows it
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]).reverse());
}

describe('order ticket rules', () => {
  it('turns a limit ticket into the request the server takes: good till canceled, no empty fields', () => {
    const result = check({ side: 'SELL', quantity: '0.010', price: '70000.0' });
    expect(result.success && result.data).toEqual({
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'LIMIT',
      quantity: '0.010',
      price: '70000.0',
      timeInForce: 'GTC',
    });
  });

  it('sends a market order without a price and a stop with its trigger, reduce-only when ticked', () => {
    expect(check({ type: 'MARKET', quantity: '0.002', price: '123' })).toMatchObject({
      success: true,
      data: { type: 'MARKET', quantity: '0.002' },
    });
    expect(
      check({ type: 'STOP_MARKET', quantity: '0.002', triggerPrice: '60000', reduceOnly: true }),
    ).toMatchObject({
      success: true,
      data: { type: 'STOP_MARKET', triggerPrice: '60000', reduceOnly: true },
    });
  });

  it('sends a trailing stop with its callback rate and activation price, and says what is wrong with them', () => {
    expect(
      check({
        type: 'TRAILING_STOP_MARKET',
        side: 'SELL',
        quantity: '0.002',
        price: '64000',
        triggerPrice: '1',
        callbackRate: '1.5',
        activationPrice: '66000.0',
        reduceOnly: true,
      }),
    ).toMatchObject({
      success: true,
      // No limit price or trigger of another type rides along
      data: {
        type: 'TRAILING_STOP_MARKET',
        quantity: '0.002',
        callbackRate: '1.5',
        activationPrice: '66000.0',
        reduceOnly: true,
      },
    });
    const trailing = { type: 'TRAILING_STOP_MARKET' as const, quantity: '0.002' };
    expect(messages(trailing).callbackRate).toBe('callbackRate is required for a TRAILING_STOP_MARKET order');
    expect(messages({ ...trailing, callbackRate: '12' }).callbackRate).toBe(
      'callbackRate must be between 0.1 and 10 (percent)',
    );
    expect(messages({ ...trailing, callbackRate: '1', activationPrice: '66000.05' }).activationPrice).toBe(
      "Activation price must be a multiple of BTCUSDT's tick size 0.10",
    );
    // A trailing stop takes no TP/SL of its own
    expect(check({ ...trailing, callbackRate: '1', takeProfit: '70000' })).toMatchObject({ success: true });
  });

  it("names the symbol's rule a quantity or price breaks", () => {
    expect(messages({ quantity: '0.0105', price: '65000.05' })).toEqual({
      quantity: "Quantity must be a multiple of BTCUSDT's step size 0.001",
      price: "Price must be a multiple of BTCUSDT's tick size 0.10",
    });
    expect(messages({ quantity: '0.0001', price: '65000' }).quantity).toBe(
      "Quantity must be at least BTCUSDT's minimum quantity 0.001",
    );
    expect(messages({ quantity: '2000', price: '65000' }).quantity).toBe(
      "Quantity must be at most BTCUSDT's maximum quantity 1000",
    );
    expect(
      messages({ type: 'TAKE_PROFIT_MARKET', quantity: '0.002', triggerPrice: '1.23' }).triggerPrice,
    ).toBe("Trigger price must be a multiple of BTCUSDT's tick size 0.10");
  });

  it("refuses a limit order worth less than the symbol's minimum notional, but leaves a market order to the exchange", () => {
    expect(messages({ quantity: '0.001', price: '65000' }).quantity).toBe(
      "Order value 65.00 USDT is below BTCUSDT's minimum notional 100 USDT (price × quantity)",
    );
    expect(check({ type: 'MARKET', quantity: '0.001' }).success).toBe(true);
  });

  it("says what is missing with the contract's words", () => {
    expect(messages({ quantity: '', price: '' })).toEqual({
      quantity: 'quantity is required (or closePosition for a STOP_MARKET / TAKE_PROFIT_MARKET order)',
      price: 'price is required for a LIMIT order',
    });
    expect(messages({ type: 'STOP_MARKET', quantity: '0.002' }).triggerPrice).toBe(
      'triggerPrice is required for a STOP_MARKET order',
    );
    expect(messages({ quantity: '-1', price: '65000' }).quantity).toBe(
      'must be a decimal string such as "0.01"',
    );
  });

  it('asks for an estimate only for a priced limit or a market order with a quantity, without its TP/SL', () => {
    const limit = { ...defaultTicketValues('btcusdt'), quantity: '0.010', price: '50000', stopLoss: '48000' };
    expect(previewRequest(limit)).toEqual({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.010',
      price: '50000',
      timeInForce: 'GTC',
    });
    expect(previewRequest({ ...limit, type: 'MARKET', side: 'SELL' })).toEqual({
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'MARKET',
      quantity: '0.010',
    });
    // Not yet: no price, no quantity, a zero, a half-typed figure, a stop (no estimate for triggers)
    expect(previewRequest({ ...limit, price: '' })).toBeUndefined();
    expect(previewRequest({ ...limit, quantity: '0' })).toBeUndefined();
    expect(previewRequest({ ...limit, quantity: '0.0.1' })).toBeUndefined();
    expect(previewRequest({ ...limit, type: 'STOP_MARKET', triggerPrice: '49000' })).toBeUndefined();
    // The form's first report may lack fields: they take the ticket's defaults
    expect(previewRequest({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1' })).toMatchObject({
      quantity: '1',
    });
  });

  it('turns a size in USDT into the quantity at the price, rounded down to the lot step', () => {
    expect(quantityForValue('200', '50000', '0.001')).toBe('0.004');
    expect(quantityForValue('199.99', '50000', '0.001')).toBe('0.003');
    expect(quantityForValue('150', '148.25', '1')).toBe('1');
    expect(quantityForValue('', '50000', '0.001')).toBeUndefined();
    expect(quantityForValue('200', '', '0.001')).toBeUndefined();
    expect(quantityForValue('200', '0', '0.001')).toBeUndefined();
  });

  it('sizes by a share of the available margin: margin × leverage of order value, in cents', () => {
    expect(valueForMarginShare('1000', 25, 20)).toBe('5000.00');
    expect(valueForMarginShare('99.999', 10, 3)).toBe('29.99');
    expect(valueForMarginShare('0', 25, 20)).toBeUndefined();
    expect(valueForMarginShare('1000', 25, 0)).toBeUndefined();
  });
});
