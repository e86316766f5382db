import { afterEach, describe, expect, it } from 'vitest';
import { Decimal } from '../common/format';
import type { UserEvent } from '../matching/events';
import { arr, Client, flatReplay, type Harness, marketOrder, minute, obj, startSim } from './harness';

let h: Harness;
afterEach(() => h.close());

type Level = [string, string];

/**
 * BTCUSDT flat at 60000 (then at `later` from minute 5), with a thin book (levels of a few hundredths of a BTC) so
 * ordinary orders walk it
 */
async function thinBook(later = 60000) {
  h = await startSim({
    feeds: [
      flatReplay('BTCUSDT', [
        { fromMinute: -1000, price: 60000 },
        { fromMinute: 5, price: later },
      ]),
    ],
    constantPremium: 0,
    bookDepth: 0.01,
  });
  const account = h.sim.exchange.createAccount({ balances: { USDT: '100000' } });
  const events: UserEvent[] = [];
  h.sim.exchange.onUserEvent((_id, e) => events.push(e));
  const client = new Client(h.url, account, h.clock);
  const depth = obj((await client.get('/fapi/v1/depth', { symbol: 'BTCUSDT', limit: 5 })).json);
  return { client, events, bids: arr(depth.bids) as Level[], asks: arr(depth.asks) as Level[] };
}

const sum = (values: Decimal.Value[]) => values.reduce<Decimal>((a, v) => a.plus(v), new Decimal(0));
const trades = (events: UserEvent[], clientOrderId: string) =>
  events.filter((e) => e.e === 'ORDER_TRADE_UPDATE' && e.o.c === clientOrderId && e.o.x === 'TRADE') as Array<
    Extract<UserEvent, { e: 'ORDER_TRADE_UPDATE' }>
  >;

describe('order book depth', () => {
  it('GET /fapi/v1/depth: best bid at the last price, best ask a tick above, sizes in whole steps', async () => {
    const { client, bids, asks } = await thinBook();
    expect(bids).toHaveLength(5);
    expect(bids[0]?.[0]).toBe('60000.00');
    expect(asks[0]?.[0]).toBe('60000.10');
    expect(bids.map((b) => Number(b[0]))).toEqual([60000, 59999.9, 59999.8, 59999.7, 59999.6]);
    expect(asks.map((a) => Number(a[0]))).toEqual([60000.1, 60000.2, 60000.3, 60000.4, 60000.5]);
    for (const [, qty] of [...bids, ...asks]) {
      expect(Number(qty)).toBeGreaterThanOrEqual(0.001);
      expect(new Decimal(qty).mod('0.001').isZero()).toBe(true);
    }
    // The best level is what bookTicker shows
    const ticker = obj((await client.get('/fapi/v1/ticker/bookTicker', { symbol: 'BTCUSDT' })).json);
    expect([ticker.bidQty, ticker.askQty]).toEqual([bids[0]?.[1], asks[0]?.[1]]);
  });

  it('weighs by limit and refuses limits Binance does not offer', async () => {
    const { client } = await thinBook();
    const big = await client.get('/fapi/v1/depth', { symbol: 'BTCUSDT', limit: 1000 });
    expect(arr(obj(big.json).asks)).toHaveLength(1000);
    const before = Number(big.headers.get('x-mbx-used-weight-1m'));
    const small = await client.get('/fapi/v1/depth', { symbol: 'BTCUSDT', limit: 10 });
    expect(Number(small.headers.get('x-mbx-used-weight-1m')) - before).toBe(2);
    const bad = await client.get('/fapi/v1/depth', { symbol: 'BTCUSDT', limit: 7 });
    expect(bad.status).toBe(400);
    expect(obj(bad.json).code).toBe(-1130);
  });
});

describe('partial fills against the book', () => {
  it('a crossing LIMIT GTC takes the levels up to its price and rests the rest as PARTIALLY_FILLED', async () => {
    const { client, events, asks } = await thinBook();
    const [a0, a1, a2] = asks;
    if (!a0 || !a1 || !a2) throw new Error('book too shallow');
    // Limit at the second ask: both levels are taken, the rest waits at 60000.20
    const qty = sum([a0[1], a1[1], a2[1]]);
    const placed = await client.signed('POST', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTC',
      price: a1[0],
      quantity: qty.toFixed(3),
      newClientOrderId: 'walk-1',
      newOrderRespType: 'RESULT',
    });
    const filled = sum([a0[1], a1[1]]);
    const avg = sum([new Decimal(a0[0]).mul(a0[1]), new Decimal(a1[0]).mul(a1[1])]).div(filled);
    expect(obj(placed.json)).toMatchObject({
      status: 'PARTIALLY_FILLED',
      executedQty: filled.toFixed(3),
      origQty: qty.toFixed(3),
    });
    expect(Number(obj(placed.json).avgPrice)).toBeCloseTo(avg.toNumber(), 4);
    // One ORDER_TRADE_UPDATE per level taken, as taker, with last and cumulative quantities
    const fills = trades(events, 'walk-1');
    expect(fills.map((e) => [e.o.L, e.o.l, e.o.z, e.o.X, e.o.m])).toEqual([
      [a0[0], a0[1], new Decimal(a0[1]).toFixed(3), 'PARTIALLY_FILLED', false],
      [a1[0], a1[1], filled.toFixed(3), 'PARTIALLY_FILLED', false],
    ]);
    const open = arr((await client.signed('GET', '/fapi/v1/openOrders', { symbol: 'BTCUSDT' })).json).map(
      obj,
    );
    expect(open).toEqual([expect.objectContaining({ status: 'PARTIALLY_FILLED', price: a1[0] })]);
    const userTrades = arr((await client.signed('GET', '/fapi/v1/userTrades', { symbol: 'BTCUSDT' })).json);
    expect(userTrades).toHaveLength(2);
    const [pos] = arr((await client.signed('GET', '/fapi/v3/positionRisk')).json).map(obj);
    expect(pos?.positionAmt).toBe(filled.toFixed(3));
  });

  it('a resting order fills as maker, at most the best level per second, until FILLED', async () => {
    // The price falls to 59990 at minute 5: a buy resting at 59995 is then above the last price and fills
    const { client, events } = await thinBook(59990);
    await client.signed('POST', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTC',
      price: '59995.0',
      quantity: '0.500',
      newClientOrderId: 'rest-1',
    });
    h.until(minute(5) + 60_000);
    const fills = trades(events, 'rest-1');
    // 0.5 BTC against levels of a few hundredths: several seconds of fills, all as maker at the order's price
    expect(fills.length).toBeGreaterThan(3);
    for (const f of fills) expect(f.o).toMatchObject({ L: '59995.00', m: true });
    expect(fills.slice(0, -1).every((f) => f.o.X === 'PARTIALLY_FILLED')).toBe(true);
    expect(fills.at(-1)?.o).toMatchObject({ X: 'FILLED', z: '0.500' });
    const times = fills.map((f) => f.T);
    expect(new Set(times).size).toBe(times.length);
    const order = obj(
      (await client.signed('GET', '/fapi/v1/order', { symbol: 'BTCUSDT', origClientOrderId: 'rest-1' })).json,
    );
    expect(order).toMatchObject({ status: 'FILLED', executedQty: '0.500', avgPrice: '59995.00000' });
  });

  it('IOC takes what the book holds within its price and expires the rest', async () => {
    const { client, asks } = await thinBook();
    const a0 = asks[0];
    if (!a0) throw new Error('book too shallow');
    const res = await client.signed('POST', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'IOC',
      price: a0[0],
      quantity: new Decimal(a0[1]).plus('0.010').toFixed(3),
      newOrderRespType: 'RESULT',
    });
    expect(obj(res.json)).toMatchObject({ status: 'EXPIRED', executedQty: a0[1], avgPrice: `${a0[0]}000` });
    expect(arr((await client.signed('GET', '/fapi/v1/openOrders')).json)).toEqual([]);
  });

  it('FOK that the book cannot fill whole expires without a trade; one it can fills across levels', async () => {
    const { client, asks } = await thinBook();
    const [a0, a1] = asks;
    if (!a0 || !a1) throw new Error('book too shallow');
    const tooBig = await client.signed('POST', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'FOK',
      price: a1[0],
      quantity: sum([a0[1], a1[1], '0.001']).toFixed(3),
      newOrderRespType: 'RESULT',
    });
    expect(obj(tooBig.json)).toMatchObject({ status: 'EXPIRED', executedQty: '0.000' });
    expect(arr((await client.signed('GET', '/fapi/v1/userTrades', { symbol: 'BTCUSDT' })).json)).toEqual([]);
    const fits = await client.signed('POST', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'FOK',
      price: a1[0],
      quantity: sum([a0[1], a1[1]]).toFixed(3),
      newOrderRespType: 'RESULT',
    });
    expect(obj(fits.json)).toMatchObject({ status: 'FILLED' });
    expect(arr((await client.signed('GET', '/fapi/v1/userTrades', { symbol: 'BTCUSDT' })).json)).toHaveLength(
      2,
    );
  });

  it('a MARKET order sweeps the book: one trade per level, average between best and worst', async () => {
    const { client, bids } = await thinBook();
    const [b0, b1, b2] = bids;
    if (!b0 || !b1 || !b2) throw new Error('book too shallow');
    const qty = sum([
      b0[1],
      b1[1],
      new Decimal(b2[1]).div(2).toDecimalPlaces(3, Decimal.ROUND_DOWN).plus('0.001'),
    ]);
    const res = await client.signed('POST', '/fapi/v1/order', {
      ...marketOrder('BTCUSDT', 'SELL', qty.toFixed(3)),
      newOrderRespType: 'RESULT',
    });
    expect(obj(res.json)).toMatchObject({ status: 'FILLED', executedQty: qty.toFixed(3) });
    const avg = Number(obj(res.json).avgPrice);
    expect(avg).toBeLessThan(Number(b0[0]));
    expect(avg).toBeGreaterThan(Number(b2[0]));
    const fills = arr((await client.signed('GET', '/fapi/v1/userTrades', { symbol: 'BTCUSDT' })).json).map(
      obj,
    );
    expect(fills.map((f) => f.price)).toEqual([b0[0], b1[0], b2[0]]);
  });
});
