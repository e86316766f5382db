import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Client, type Harness, marketOrder, minute, obj, request, startSim } from './harness';
import { fixture, shapeDiff } from './shape';
import { Sockets } from './sockets';

let h: Harness;
const sockets = new Sockets();
afterEach(async () => {
  sockets.terminateAll();
  await h.close();
});

const connect = (url: string) => sockets.connect(url);

function step(ms: number) {
  h.until(h.clock.now() + ms);
}

describe('market streams', () => {
  it('pushes aggTrade on the routed /market/ws path in Binance shape', async () => {
    h = await startSim();
    const s = connect(`${h.wsUrl}/market/ws/btcusdt@aggTrade`);
    await s.opened;
    step(1000);
    const m = await s.next((x) => x.e === 'aggTrade');
    expect(shapeDiff(fixture('ws_agg_trade.json'), m, true)).toEqual([]);
    expect(m).toMatchObject({ s: 'BTCUSDT', E: h.clock.now() - (h.clock.now() % 1000) });
  });

  it('wraps combined streams as {stream, data} and closes a kline at the minute with x=true', async () => {
    h = await startSim();
    const s = connect(`${h.wsUrl}/market/stream?streams=btcusdt@kline_1m/ethusdt@markPrice@1s`);
    await s.opened;
    step(1000);
    const mark = await s.next((x) => x.stream === 'ethusdt@markPrice@1s');
    expect(shapeDiff(fixture('ws_mark_price_update.json'), mark.data, true)).toEqual([]);
    const open = await s.next((x) => x.stream === 'btcusdt@kline_1m');
    expect(shapeDiff(fixture('ws_kline.json'), open.data, true)).toEqual([]);
    expect(obj(obj(open.data).k)).toMatchObject({ t: minute(0), x: false, i: '1m' });
    h.until(minute(1));
    const closed = await s.next((x) => x.stream === 'btcusdt@kline_1m' && obj(obj(x.data).k).x === true);
    expect(obj(obj(closed.data).k).t).toBe(minute(0));
  });

  it('streams 3d, 1w and 1M klines with their calendar open and close times', async () => {
    h = await startSim();
    const s = connect(`${h.wsUrl}/market/stream?streams=btcusdt@kline_3d/btcusdt@kline_1w/btcusdt@kline_1M`);
    await s.opened;
    step(1000);
    const k = async (i: string) => obj(obj((await s.next((x) => x.stream === `btcusdt@kline_${i}`)).data).k);
    // T0 is Thursday 15 January 2026: day 20468 = 3 × 6822 + 2, so the 3d bar opened on Tuesday 13 January
    expect(await k('3d')).toMatchObject({
      i: '3d',
      t: Date.UTC(2026, 0, 13),
      T: Date.UTC(2026, 0, 16) - 1,
      x: false,
    });
    expect(await k('1w')).toMatchObject({ i: '1w', t: Date.UTC(2026, 0, 12), T: Date.UTC(2026, 0, 19) - 1 });
    const month = await k('1M');
    expect(month).toMatchObject({ i: '1M', t: Date.UTC(2026, 0, 1), T: Date.UTC(2026, 1, 1) - 1, x: false });
    // The same bar as REST serves in the same simulated second
    const rest = (
      await request(h.url, 'GET', '/fapi/v1/klines', { query: 'symbol=BTCUSDT&interval=1M&limit=1' })
    ).json as unknown[][];
    expect([month.o, month.h, month.l, month.c]).toEqual(rest[0]?.slice(1, 5));
  });

  it('serves bookTicker on /public only and refuses legacy unrouted paths', async () => {
    h = await startSim();
    const s = connect(`${h.wsUrl}/public/ws/solusdt@bookTicker`);
    await s.opened;
    step(1000);
    const m = await s.next((x) => x.e === 'bookTicker');
    expect(shapeDiff(fixture('ws_book_ticker.json'), m, true)).toEqual([]);
    expect(Number(m.a)).toBeGreaterThan(Number(m.b));
    // The same book as REST bookTicker in the same simulated second (the clock only moves by step())
    const rest = obj(
      (await request(h.url, 'GET', '/fapi/v1/ticker/bookTicker', { query: 'symbol=SOLUSDT' })).json,
    );
    expect(m).toMatchObject({ b: rest.bidPrice, B: rest.bidQty, a: rest.askPrice, A: rest.askQty });
    await expect(connect(`${h.wsUrl}/market/ws/solusdt@bookTicker`).opened).rejects.toThrow('HTTP 400');
    await expect(connect(`${h.wsUrl}/ws/btcusdt@aggTrade`).opened).rejects.toThrow('HTTP 404');
    await expect(connect(`${h.wsUrl}/market/ws/BTCUSDT@aggTrade`).opened).rejects.toThrow('HTTP 400');
  });

  it('pushes 24hrTicker and 24hrMiniTicker every 2 s with the REST ticker/24hr figures', async () => {
    h = await startSim();
    const s = connect(`${h.wsUrl}/market/stream?streams=btcusdt@ticker/btcusdt@miniTicker`);
    await s.opened;
    step(2000);
    const t = obj((await s.next((x) => x.stream === 'btcusdt@ticker')).data);
    const mini = obj((await s.next((x) => x.stream === 'btcusdt@miniTicker')).data);
    expect(shapeDiff(fixture('ws_24hr_ticker.json'), t, true)).toEqual([]);
    expect(shapeDiff(fixture('ws_24hr_mini_ticker.json'), mini, true)).toEqual([]);
    const rest = obj((await request(h.url, 'GET', '/fapi/v1/ticker/24hr', { query: 'symbol=BTCUSDT' })).json);
    expect(t).toMatchObject({ e: '24hrTicker', s: 'BTCUSDT', c: rest.lastPrice, P: rest.priceChangePercent });
    expect(mini).toMatchObject({ e: '24hrMiniTicker', s: 'BTCUSDT', c: rest.lastPrice, o: rest.openPrice });
    const count = s.seen.length;
    step(1000);
    step(1000);
    await s.next(
      (x) => x.stream === 'btcusdt@ticker' && obj(x.data).E === h.clock.now() - (h.clock.now() % 1000),
    );
    // One more of each after 2 s, none in between
    expect(s.seen.length - count).toBe(2);
  });

  it('closes a connection once it has lived 24 h, as Binance does', async () => {
    h = await startSim({ streams: { connectionLifetimeMs: 5 * 60_000 } });
    const s = connect(`${h.wsUrl}/market/ws/btcusdt@markPrice`);
    await s.opened;
    step(4 * 60_000);
    expect(s.ws.readyState).toBe(WebSocket.OPEN);
    step(60_000);
    expect(await s.closed).toBe(1001);
  });

  it('pings every socket and drops one that stops answering', async () => {
    h = await startSim({ streams: { pingIntervalMs: 20, pongTimeoutMs: 200 } });
    const answering = connect(`${h.wsUrl}/market/ws/btcusdt@markPrice`);
    // ws answers pings by itself unless told not to: this one plays a client that stopped answering
    const silent = sockets.track(
      new WebSocket(`${h.wsUrl}/market/ws/btcusdt@markPrice`, { autoPong: false }),
    );
    const pinged = new Promise<void>((resolve) => silent.once('ping', () => resolve()));
    const closed = new Promise<number>((resolve) => silent.once('close', (code) => resolve(code)));
    await answering.opened;
    await pinged;
    expect(await closed).toBe(1006);
    expect(answering.ws.readyState).toBe(WebSocket.OPEN);
  });

  it('answers SUBSCRIBE and LIST_SUBSCRIPTIONS and then streams what was asked', async () => {
    h = await startSim();
    const s = connect(`${h.wsUrl}/market/ws`);
    await s.opened;
    s.ws.send(JSON.stringify({ method: 'SUBSCRIBE', params: ['ethusdt@aggTrade'], id: 7 }));
    expect(await s.next((x) => x.id === 7)).toEqual({ result: null, id: 7 });
    s.ws.send(JSON.stringify({ method: 'LIST_SUBSCRIPTIONS', id: 8 }));
    expect(await s.next((x) => x.id === 8)).toEqual({ result: ['ethusdt@aggTrade'], id: 8 });
    s.ws.send(JSON.stringify({ method: 'SUBSCRIBE', params: ['ethusdt@depth9'], id: 9 }));
    expect(obj((await s.next((x) => x.id === 9)).error).code).toBe(2);
    step(1000);
    expect((await s.next((x) => x.e === 'aggTrade')).s).toBe('ETHUSDT');
  });
});

describe('user data stream', () => {
  async function userStream(query = '') {
    h = await startSim();
    const account = h.sim.exchange.createAccount({ balances: { USDT: '5000' } });
    const client = new Client(h.url, account, h.clock);
    const key = String(obj((await client.keyed('POST', '/fapi/v1/listenKey')).json).listenKey);
    const s = connect(
      query ? `${h.wsUrl}/private/ws?listenKey=${key}&${query}` : `${h.wsUrl}/private/ws/${key}`,
    );
    await s.opened;
    return { client, key, s };
  }

  it('pushes ORDER_TRADE_UPDATE (NEW, TRADE) and ACCOUNT_UPDATE for a filled order', async () => {
    const { client, s } = await userStream();
    await client.signed('POST', '/fapi/v1/order', {
      symbol: 'ETHUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '0.100',
      newClientOrderId: 'ws-check',
    });
    const created = await s.next((m) => m.e === 'ORDER_TRADE_UPDATE' && obj(m.o).x === 'NEW');
    expect(shapeDiff(fixture('ws_order_trade_update.json'), created, true)).toEqual([]);
    expect(obj(created.o)).toMatchObject({ c: 'ws-check', X: 'NEW', S: 'BUY', o: 'MARKET', ps: 'BOTH' });
    const trade = await s.next((m) => m.e === 'ORDER_TRADE_UPDATE' && obj(m.o).x === 'TRADE');
    expect(obj(trade.o)).toMatchObject({ X: 'FILLED', l: '0.100', z: '0.100', m: false });
    const update = await s.next((m) => m.e === 'ACCOUNT_UPDATE');
    expect(shapeDiff(fixture('ws_account_update.json'), update, true)).toEqual([]);
    const a = obj(update.a);
    expect(a.m).toBe('ORDER');
    expect(obj((a.P as unknown[])[0])).toMatchObject({ s: 'ETHUSDT', pa: '0.1', mt: 'cross', ps: 'BOTH' });
  });

  it('filters by events= and tells listenKeyExpired after 60 minutes without keepalive', async () => {
    const { client, key, s } = await userStream('events=ACCOUNT_UPDATE');
    await client.signed('POST', '/fapi/v1/order', marketOrder('ETHUSDT', 'BUY', '0.100'));
    await s.next((m) => m.e === 'ACCOUNT_UPDATE');
    expect(s.seen.filter((m) => m.e === 'ORDER_TRADE_UPDATE')).toHaveLength(0);
    step(61 * 60_000);
    const expired = await s.next((m) => m.e === 'listenKeyExpired');
    expect(expired.listenKey).toBe(key);
    expect(await s.closed).toBe(1000);
    expect(obj((await client.keyed('PUT', '/fapi/v1/listenKey')).json).code).toBe(-1125);
  });

  it('refuses an unknown listenKey', async () => {
    h = await startSim();
    await expect(connect(`${h.wsUrl}/private/ws/not-a-key`).opened).rejects.toThrow('HTTP 400');
  });
});

describe('socket faults', () => {
  it('drops every socket without a close frame on POST /_sim/ws/drop', async () => {
    h = await startSim();
    const s = connect(`${h.wsUrl}/market/ws/btcusdt@aggTrade`);
    await s.opened;
    const res = await request(h.url, 'POST', '/_sim/ws/drop', {
      headers: { 'content-type': 'application/json' },
    });
    expect(res.json).toEqual({ dropped: 1 });
    expect(await s.closed).toBe(1006);
  });
});
