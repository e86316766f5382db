import { describe, expect, it } from 'vitest';
import { KlinesQuerySchema, MarketDataQuerySchema, SymbolSchema } from './market';

/** The first message a caller would see for `input`, or undefined when it parses */
function firstError(
  schema: { safeParse(input: unknown): { error?: { issues: { message: string }[] } } },
  input: unknown,
) {
  return schema.safeParse(input).error?.issues[0]?.message;
}

describe('KlinesQuerySchema (GET /api/v1/market/klines/{symbol})', () => {
  it('defaults to interval 1h and limit 100, as the spec says', () => {
    expect(KlinesQuerySchema.parse({})).toEqual({ interval: '1h', limit: 100 });
  });

  it('reads the limit from a query string and keeps a given interval', () => {
    expect(KlinesQuerySchema.parse({ interval: '1M', limit: '500' })).toEqual({ interval: '1M', limit: 500 });
  });

  it('names the allowed intervals when given another', () => {
    expect(firstError(KlinesQuerySchema, { interval: '2m' })).toBe(
      'interval must be one of 1m, 3m, 5m, 15m, 30m, 1h, 2h, 4h, 6h, 8h, 12h, 1d, 3d, 1w, 1M',
    );
  });

  it.each([
    ['0', 'limit must be at least 1'],
    ['1501', 'limit must be at most 1500'],
    ['2.5', 'limit must be a whole number'],
    ['many', 'limit must be a number'],
  ])('refuses limit %s with "%s"', (limit, message) => {
    expect(firstError(KlinesQuerySchema, { limit })).toBe(message);
  });
});

describe('SymbolSchema', () => {
  it('upper-cases and trims what the user typed', () => {
    expect(SymbolSchema.parse(' btcusdt ')).toBe('BTCUSDT');
  });

  it('explains what a symbol looks like', () => {
    expect(firstError(SymbolSchema, 'BTC-USDT')).toBe('symbol must be 3-20 letters or digits, e.g. BTCUSDT');
  });
});

describe('MarketDataQuerySchema (GET /api/v1/market/data?symbols=…)', () => {
  it('splits the comma list, drops empty entries and upper-cases each symbol', () => {
    expect(MarketDataQuerySchema.parse({ symbols: 'btcusdt, ETHUSDT,,' })).toEqual({
      symbols: ['BTCUSDT', 'ETHUSDT'],
    });
  });

  it('says the list is required, and needs a symbol in it', () => {
    expect(firstError(MarketDataQuerySchema, {})).toBe(
      'symbols is required: a comma list such as BTCUSDT,ETHUSDT',
    );
    expect(firstError(MarketDataQuerySchema, { symbols: ' , ' })).toBe('symbols needs at least one symbol');
  });

  it('takes at most 50 symbols', () => {
    const symbols = (n: number) => Array.from({ length: n }, (_, i) => `SYM${i}USDT`).join(',');
    expect(MarketDataQuerySchema.parse({ symbols: symbols(50) }).symbols).toHaveLength(50);
    expect(firstError(MarketDataQuerySchema, { symbols: symbols(51) })).toBe('at most 50 symbols');
  });
});
