import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { OrderHistoryQuerySchema, TradeHistoryQuerySchema } from './history';

const messages = (r: { success: boolean; error?: z.ZodError }) => r.error?.issues.map((i) => i.message) ?? [];

describe('history queries', () => {
  it('trades: newest first, page 1 of 100 by default; symbol and side upper-cased; query strings coerced', () => {
    expect(TradeHistoryQuerySchema.parse({})).toEqual({
      sort: 'time',
      order: 'desc',
      page: 1,
      pageSize: 100,
    });
    expect(
      TradeHistoryQuerySchema.parse({ from: '10', to: '20', symbol: 'btcusdt', side: 'sell', sort: 'price' }),
    ).toEqual({
      from: 10,
      to: 20,
      symbol: 'BTCUSDT',
      side: 'SELL',
      sort: 'price',
      order: 'desc',
      page: 1,
      pageSize: 100,
    });
    expect(OrderHistoryQuerySchema.parse({ type: 'limit', status: 'filled' })).toMatchObject({
      type: 'LIMIT',
      status: 'FILLED',
    });
  });

  it('says what is wrong', () => {
    expect(messages(TradeHistoryQuerySchema.safeParse({ pageSize: '501' }))).toEqual([
      'pageSize must be at most 500',
    ]);
    expect(messages(TradeHistoryQuerySchema.safeParse({ from: '20', to: '10' }))).toEqual([
      'from must not be after to',
    ]);
    expect(messages(TradeHistoryQuerySchema.safeParse({ side: 'long' }))).toEqual([
      'side must be BUY or SELL',
    ]);
    expect(messages(TradeHistoryQuerySchema.safeParse({ sort: 'status' }))).toEqual([
      'sort must be one of time, symbol, price, quantity, quoteQuantity, realizedPnl, commission',
    ]);
    expect(messages(OrderHistoryQuerySchema.safeParse({ status: 'done!' }))[0]).toMatch(
      /^status must be an upper-case word/,
    );
    // Strict: a misspelt parameter is refused rather than ignored
    expect(TradeHistoryQuerySchema.safeParse({ symbols: 'BTCUSDT' }).success).toBe(false);
  });
});
