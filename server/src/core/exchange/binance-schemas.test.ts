import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  AccountSchema,
  AlgoOrderSchema,
  ApiRestrictionsSchema,
  CanceledAlgoOrderSchema,
  ExchangeInfoSchema,
  ExchangeSymbolSchema,
  IncomeSchema,
  KlinesSchema,
  LeverageBracketsSchema,
  LeverageSchema,
  ListenKeySchema,
  LotSizeFilterSchema,
  MinNotionalFilterSchema,
  OrderSchema,
  PositionRiskSchema,
  PriceFilterSchema,
  readAnswer,
  ServerTimeSchema,
  Ticker24hSchema,
  UserTradesSchema,
} from './binance-schemas';
import { ExchangeResponseError } from './exchange-adapter';
import { parseJsonBigSafe } from './json-bigint';

// Binance's own answers, as its documentation shows them (the simulator's tests hold it to the same envelopes)
const TEST_DATA = new URL('../../../../packages/exchange-sim/test-data/', import.meta.url);
const envelope = (name: string): unknown => parseJsonBigSafe(readFileSync(new URL(name, TEST_DATA), 'utf8'));

/** The answer `name` with `change` applied to a deep copy */
function variant(name: string, change: (answer: Record<string, unknown>) => void): unknown {
  const answer = envelope(name);
  const target = Array.isArray(answer) ? answer[0] : answer;
  change(target);
  return answer;
}

/** The message of the ExchangeResponseError `read` throws */
function failure(read: () => unknown): string {
  try {
    read();
  } catch (err) {
    expect(err).toBeInstanceOf(ExchangeResponseError);
    return (err as ExchangeResponseError).message;
  }
  throw new Error('the answer was read without complaint');
}

const read = <S extends z.ZodType>(source: string, schema: S, value: unknown) =>
  readAnswer(source, schema, value);

describe("Binance's documented answers are read as they are", () => {
  it.each([
    ['http_get_time.json', ServerTimeSchema],
    ['http_get_ticker_24hr.json', Ticker24hSchema],
    ['http_get_klines.json', KlinesSchema],
    ['http_get_account_v3.json', AccountSchema],
    ['http_get_api_restrictions.json', ApiRestrictionsSchema],
    ['http_get_position_risk_v3.json', PositionRiskSchema],
    ['http_get_order.json', OrderSchema],
    ['http_post_order.json', OrderSchema],
    ['http_get_algo_order.json', AlgoOrderSchema],
    ['http_post_algo_order.json', AlgoOrderSchema],
    ['http_delete_algo_order.json', CanceledAlgoOrderSchema],
    ['http_get_user_trades.json', UserTradesSchema],
    ['http_get_income.json', IncomeSchema],
    ['http_get_leverage_bracket.json', LeverageBracketsSchema],
    ['http_post_leverage.json', LeverageSchema],
    ['http_post_listen_key.json', ListenKeySchema],
    ['http_get_exchange_info.json', ExchangeInfoSchema],
  ] as const)('%s', (name, schema) => {
    expect(() => read(name, schema, envelope(name))).not.toThrow();
  });

  it('keeps decimals as the exact strings sent, and ids as decimal strings', () => {
    const [position] = read('positionRisk', PositionRiskSchema, envelope('http_get_position_risk_v3.json'));
    expect(position).toMatchObject({ markPrice: '0.41047590', positionAmt: '30', updateTime: 1720736417660 });
    const order = read('order', OrderSchema, envelope('http_post_order.json'));
    expect(order).toMatchObject({ orderId: '22542179', avgPrice: '0.00000', goodTillDate: 1693207680000 });
    const [kline] = read('klines', KlinesSchema, envelope('http_get_klines.json'));
    expect(kline?.slice(0, 9)).toEqual([
      1499040000000,
      '0.01634790',
      '0.80000000',
      '0.01575800',
      '0.01577100',
      '148976.11427815',
      1499644799999,
      '2434.19055334',
      308,
    ]);
  });

  it('reads one symbol of exchangeInfo with its price, lot and notional filters', () => {
    const info = read('exchangeInfo', ExchangeInfoSchema, envelope('http_get_exchange_info.json'));
    const symbol = read('exchangeInfo', ExchangeSymbolSchema, info.symbols[0]);
    const filter = (type: string) => symbol.filters.find((f) => f.filterType === type);
    expect(read('f', PriceFilterSchema, filter('PRICE_FILTER'))).toEqual({ tickSize: '0.0001' });
    expect(read('f', LotSizeFilterSchema, filter('LOT_SIZE'))).toEqual({
      stepSize: '1',
      minQty: '1',
      maxQty: '10000000',
    });
    expect(read('f', MinNotionalFilterSchema, filter('MIN_NOTIONAL')).notional).toMatch(/^\d/);
  });

  it('keeps order ids above 2^53 exact', () => {
    const answer = parseJsonBigSafe(
      readFileSync(new URL('http_post_order.json', TEST_DATA), 'utf8').replace(
        '"orderId": 22542179',
        '"orderId": 8389765612825190229',
      ),
    );
    expect(read('order', OrderSchema, answer).orderId).toBe('8389765612825190229');
  });
});

describe('what Binance documents as optional stays optional', () => {
  it('an order answer without avgPrice and cumQuote (SDK 34) is read while nothing was executed', () => {
    const answer = variant('http_post_order.json', (o) => {
      delete o.avgPrice;
      delete o.cumQuote;
    });
    expect(read('POST /fapi/v1/order', OrderSchema, answer).avgPrice).toBeUndefined();
  });

  it('but an executed order without avgPrice is refused: its fill price is not made up', () => {
    const answer = variant('http_post_order.json', (o) => {
      delete o.avgPrice;
      o.executedQty = '10';
    });
    expect(failure(() => read('POST /fapi/v1/order', OrderSchema, answer))).toBe(
      'POST /fapi/v1/order: avgPrice: missing (expected a decimal string, the order was executed)',
    );
  });

  it('leverage brackets come as an array of one or as one object; income of the account has symbol ""', () => {
    const [entry] = envelope('http_get_leverage_bracket.json') as unknown[];
    expect(read('brackets', LeverageBracketsSchema, entry)).toEqual([
      {
        symbol: 'ETHUSDT',
        brackets: [
          {
            bracket: 1,
            initialLeverage: 75,
            notionalCap: 10000,
            notionalFloor: 0,
            maintMarginRatio: 0.0065,
            cum: 0,
          },
        ],
      },
    ]);
    expect(read('income', IncomeSchema, envelope('http_get_income.json'))[0]?.symbol).toBe('');
  });

  it('a conditional order reads "" for what does not apply, and EXPIRED_IN_MATCH is an expired order', () => {
    const algo = read('algo', AlgoOrderSchema, envelope('http_get_algo_order.json'));
    expect(algo).toMatchObject({ actualOrderId: '', algoId: '2146760', algoStatus: 'CANCELED' });
    const answer = variant('http_get_order.json', (o) => {
      o.status = 'EXPIRED_IN_MATCH';
    });
    expect(read('order', OrderSchema, answer).status).toBe('EXPIRED');
  });
});

describe('a malformed answer is a typed error naming the answer and the field', () => {
  it('a missing field is never read as "0"', () => {
    const answer = variant('http_get_position_risk_v3.json', (p) => {
      delete p.markPrice;
    });
    expect(failure(() => read('GET /fapi/v3/positionRisk', PositionRiskSchema, answer))).toBe(
      'GET /fapi/v3/positionRisk: [0].markPrice: missing (expected a decimal string)',
    );
  });

  it.each([
    ['a number for a decimal', 'markPrice', 0.4104759, '[0].markPrice: expected a decimal string'],
    ['an exponent in a decimal', 'notional', '1.2e1', '[0].notional: expected a decimal string'],
    ['an unknown position side', 'positionSide', 'UP', '[0].positionSide: expected BOTH, LONG or SHORT'],
    ['a string for a time', 'updateTime', '1720736417660', '[0].updateTime: expected a time in ms'],
  ])('%s', (_what, field, value, message) => {
    const answer = variant('http_get_position_risk_v3.json', (p) => {
      p[field] = value;
    });
    expect(failure(() => read('GET /fapi/v3/positionRisk', PositionRiskSchema, answer))).toBe(
      `GET /fapi/v3/positionRisk: ${message}`,
    );
  });

  it('names fields in nested lists and rows, and counts the other problems', () => {
    const account = variant('http_get_account_v3.json', (a) => {
      const [asset] = a.assets as Record<string, unknown>[];
      if (asset) delete asset.walletBalance;
      a.availableBalance = null;
    });
    expect(failure(() => read('GET /fapi/v3/account', AccountSchema, account))).toBe(
      'GET /fapi/v3/account: availableBalance: expected a decimal string (and 1 more)',
    );
    const klines = envelope('http_get_klines.json') as unknown[][];
    const [row] = klines;
    if (row) row[8] = '308';
    expect(failure(() => read('GET /fapi/v1/klines', KlinesSchema, klines))).toBe(
      'GET /fapi/v1/klines: [0][8]: expected a whole number',
    );
    expect(failure(() => read('GET /fapi/v3/account', AccountSchema, []))).toBe(
      'GET /fapi/v3/account: expected an object',
    );
    expect(failure(() => read('GET /fapi/v1/klines', KlinesSchema, [{}]))).toBe(
      'GET /fapi/v1/klines: [0]: expected a list',
    );
  });

  it('refuses an order side, status or id it does not know instead of guessing', () => {
    const side = variant('http_get_order.json', (o) => {
      o.side = 'HOLD';
    });
    expect(failure(() => read('GET /fapi/v1/order', OrderSchema, side))).toBe(
      'GET /fapi/v1/order: side: expected BUY or SELL',
    );
    const id = variant('http_get_order.json', (o) => {
      o.orderId = '12ab';
    });
    expect(failure(() => read('GET /fapi/v1/order', OrderSchema, id))).toBe(
      'GET /fapi/v1/order: orderId: expected an integer id',
    );
    const status = variant('http_get_algo_order.json', (o) => {
      o.algoStatus = 'PAUSED';
    });
    expect(failure(() => read('GET /fapi/v1/algoOrder', AlgoOrderSchema, status))).toMatch(
      /^GET \/fapi\/v1\/algoOrder: algoStatus: expected NEW, TRIGGERING, /,
    );
  });
});
