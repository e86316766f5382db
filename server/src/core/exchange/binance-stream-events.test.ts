import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readStreamMessage, toMarketEvent, toUserDataEvent, type WireEvent } from './binance-stream-events';
import { ExchangeResponseError } from './exchange-adapter';

// Binance's own stream events, as its documentation shows them
const TEST_DATA = new URL('../../../../packages/exchange-sim/test-data/', import.meta.url);
const text = (name: string) => readFileSync(new URL(name, TEST_DATA), 'utf8');

/** The event of test-data file `name`, after `change` */
function event(name: string, change: (e: Record<string, unknown>) => void = () => {}): WireEvent {
  const message = readStreamMessage('test', text(name));
  if (!('event' in message)) throw new Error(`${name} is not an event`);
  change(message.event);
  return message.event;
}

/** The nested object `o` (or `a`) of an event */
const inner = (e: Record<string, unknown>, key: string) => e[key] as Record<string, unknown>;

function failure(read: () => unknown): string {
  try {
    read();
  } catch (err) {
    expect(err).toBeInstanceOf(ExchangeResponseError);
    return (err as ExchangeResponseError).message;
  }
  throw new Error('the event was read without complaint');
}

describe("Binance's documented stream events in our terms", () => {
  it('market events', () => {
    expect(toMarketEvent(event('ws_24hr_ticker.json'))).toEqual({
      type: 'ticker',
      symbol: 'BTCUSDT',
      lastPrice: '0.0025',
      priceChange: '0.0015',
      priceChangePercent: '250.00',
      openPrice: '0.0010',
      highPrice: '0.0025',
      lowPrice: '0.0010',
      volume: '10000',
      quoteVolume: '18',
      time: 123456789,
    });
    expect(toMarketEvent(event('ws_mark_price_update.json'))).toEqual({
      type: 'markPrice',
      symbol: 'BTCUSDT',
      markPrice: '11794.15000000',
      indexPrice: '11784.62659091',
      fundingRate: '0.00038167',
      nextFundingTime: 1562306400000,
      time: 1562305380000,
    });
    expect(toMarketEvent(event('ws_book_ticker.json'))).toMatchObject({
      type: 'bookTicker',
      bidPrice: '25.35190000',
      askQuantity: '40.66000000',
      time: 1568014460893,
    });
    expect(toMarketEvent(event('ws_kline.json'))).toMatchObject({
      type: 'kline',
      interval: '1m',
      closed: false,
      kline: { openTime: 1638747660000, close: '0.0020', trades: 100 },
    });
    expect(toMarketEvent(event('ws_agg_trade.json'))).toEqual({
      type: 'aggTrade',
      symbol: 'BTCUSDT',
      id: 5933014,
      price: '0.001',
      quantity: '100',
      buyerMaker: true,
      time: 123456785,
    });
    expect(toMarketEvent(event('ws_depth_update.json'))).toEqual({
      type: 'depth',
      symbol: 'BTCUSDT',
      firstUpdateId: 157,
      finalUpdateId: 160,
      previousFinalUpdateId: 149,
      bids: [['0.0024', '10']],
      asks: [['0.0026', '100']],
      time: 123456789,
    });
    // Not mapped: no error, no event
    expect(toMarketEvent(event('ws_24hr_mini_ticker.json'))).toBeUndefined();
  });

  it('user-data events', () => {
    expect(toUserDataEvent(event('ws_order_trade_update.json'))).toMatchObject({
      type: 'order',
      orderId: '8886774',
      clientOrderId: 'TEST',
      side: 'SELL',
      status: 'NEW',
      positionSide: 'LONG',
      commission: '0',
      commissionAsset: 'USDT',
      time: 1568879465650,
    });
    const algo = toUserDataEvent(event('ws_algo_update.json'));
    expect(algo).toMatchObject({ type: 'algoOrder', algoId: '2148719', reason: 'Reduce Only reject' });
    // "ai" is "" until the order fired
    expect(algo).not.toHaveProperty('triggeredOrderId');
    expect(toUserDataEvent(event('ws_account_update.json'))).toEqual({
      type: 'account',
      reason: 'ORDER',
      time: 1564745798939,
      balances: [
        {
          asset: 'USDT',
          walletBalance: '122624.12345678',
          crossWalletBalance: '100.12345678',
          balanceChange: '50.12345678',
        },
      ],
      positions: [
        {
          symbol: 'BTCUSDT',
          positionSide: 'BOTH',
          amount: '0',
          entryPrice: '0.00000',
          unrealizedPnl: '0',
          marginType: 'isolated',
        },
      ],
    });
  });

  it('unwraps combined-stream frames and tells replies from events', () => {
    const wrapped = readStreamMessage(
      'market',
      `{"stream":"btcusdt@kline_1m","data":${text('ws_kline.json')}}`,
    );
    expect('event' in wrapped && wrapped.event.e).toBe('kline');
    expect(readStreamMessage('market', '{"result":null,"id":1}')).toEqual({ reply: { error: undefined } });
  });
});

describe('what Binance leaves out by design stays optional', () => {
  it('a fill without commission has no n/N; an ACCOUNT_UPDATE of funding has no P', () => {
    const noCommission = event('ws_order_trade_update.json', (e) => {
      delete inner(e, 'o').n;
      delete inner(e, 'o').N;
    });
    expect(toUserDataEvent(noCommission)).toMatchObject({ commission: '0', commissionAsset: '' });
    const funding = event('ws_account_update.json', (e) => {
      delete inner(e, 'a').P;
    });
    expect(toUserDataEvent(funding)).toMatchObject({ positions: [] });
  });
});

describe('a malformed event is a typed error naming the event and the field', () => {
  it.each([
    [
      'a missing order status',
      'ws_order_trade_update.json',
      (e: Record<string, unknown>) => delete inner(e, 'o').X,
      'ORDER_TRADE_UPDATE event: o.X: missing (expected NEW, PARTIALLY_FILLED, FILLED, CANCELED, REJECTED, EXPIRED, EXPIRED_IN_MATCH)',
    ],
    [
      'a number for a price',
      'ws_order_trade_update.json',
      (e: Record<string, unknown>) => {
        inner(e, 'o').L = 7103.04;
      },
      'ORDER_TRADE_UPDATE event: o.L: expected a decimal string',
    ],
    [
      'a balance without its wallet balance',
      'ws_account_update.json',
      (e: Record<string, unknown>) => {
        const [balance] = inner(e, 'a').B as Record<string, unknown>[];
        if (balance) delete balance.wb;
      },
      'ACCOUNT_UPDATE event: a.B[0].wb: missing (expected a decimal string)',
    ],
    [
      'an unknown side',
      'ws_algo_update.json',
      (e: Record<string, unknown>) => {
        inner(e, 'o').S = 'sell';
      },
      'ALGO_UPDATE event: o.S: expected BUY or SELL',
    ],
  ])('%s', (_what, name, change, message) => {
    expect(failure(() => toUserDataEvent(event(name, change)))).toBe(message);
  });

  it('market events too, and frames that are not JSON or not events', () => {
    const noMark = event('ws_mark_price_update.json', (e) => {
      delete e.p;
    });
    expect(failure(() => toMarketEvent(noMark))).toBe(
      'markPriceUpdate event: p: missing (expected a decimal string)',
    );
    expect(failure(() => readStreamMessage('market stream message', '{"e":'))).toBe(
      'market stream message: expected JSON',
    );
    expect(failure(() => readStreamMessage('market stream message', '[1,2]'))).toBe(
      'market stream message: expected an object',
    );
    expect(failure(() => readStreamMessage('market stream message', '{"stream":"x","data":{"E":1}}'))).toBe(
      'market stream message: data.e: missing (expected a string)',
    );
  });
});
