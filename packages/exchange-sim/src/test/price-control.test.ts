import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ManualClock } from '../common/clock';
import { resolveSymbols } from '../common/symbols';
import type { UserEvent } from '../matching/events';
import { Exchange } from '../matching/exchange';
import {
  arr,
  Client,
  type Harness,
  limitOrder,
  marketOrder,
  minute,
  obj,
  request,
  startSim,
  T0,
} from './harness';

let h: Harness;
let running: Harness | undefined;
const sockets: WebSocket[] = [];
afterEach(async () => {
  for (const s of sockets) s.terminate();
  sockets.length = 0;
  await running?.close();
  running = undefined;
});

/** BTCUSDT's tick is 0.10 */
const onTick = (p: number) => (Math.round(p * 10) / 10).toFixed(1);

function admin(method: string, path: string, body?: unknown) {
  return request(h.url, method, `/_sim/prices${path}`, {
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    headers: { 'content-type': 'application/json' },
  });
}

async function lastPrice(client: Client): Promise<number> {
  return Number(obj((await client.get('/fapi/v1/ticker/price', { symbol: 'BTCUSDT' })).json).price);
}

async function trader(balance = '10000') {
  h = await startSim();
  running = h;
  const account = h.sim.exchange.createAccount({ balances: { USDT: balance } });
  const client = new Client(h.url, account, h.clock);
  return { client, p0: await lastPrice(client) };
}

function step(ms: number) {
  h.until(h.clock.now() + ms);
}

/** A socket that records messages; `next` resolves with the first recorded or new message matching */
function connect(url: string) {
  const ws = new WebSocket(url);
  sockets.push(ws);
  const seen: Record<string, unknown>[] = [];
  const waiters: Array<{ match: (m: Record<string, unknown>) => boolean; resolve: (m: unknown) => void }> =
    [];
  ws.on('message', (data) => {
    const m = JSON.parse(data.toString()) as Record<string, unknown>;
    seen.push(m);
    for (const w of [...waiters]) {
      if (w.match(m)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  });
  return {
    opened: new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    }),
    next(match: (m: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
      const found = seen.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ match, resolve: (m) => resolve(obj(m)) }));
    },
  };
}

describe('the admin API sets a price', () => {
  it('jumps last price, book and mark now, and holds the price while the manual clock stands still', async () => {
    const { client, p0 } = await trader();
    const x = onTick(p0 * 0.97);
    const set = await admin('POST', '/BTCUSDT', { price: x });
    expect(set.status).toBe(200);
    expect(obj(set.json)).toMatchObject({ symbol: 'BTCUSDT', mode: 'held', lastPrice: Number(x).toFixed(2) });
    expect(await lastPrice(client)).toBe(Number(x));
    const book = obj((await client.get('/fapi/v1/ticker/bookTicker', { symbol: 'BTCUSDT' })).json);
    expect([book.bidPrice, book.askPrice]).toEqual([Number(x).toFixed(2), (Number(x) + 0.1).toFixed(2)]);
    const mark = Number(
      obj((await client.get('/fapi/v1/premiumIndex', { symbol: 'BTCUSDT' })).json).markPrice,
    );
    expect(Math.abs(mark / Number(x) - 1)).toBeLessThan(0.001);
    step(45_000);
    expect(await lastPrice(client)).toBe(Number(x));
    expect(obj((await admin('GET', '/BTCUSDT')).json).mode).toBe('held');
    const all = arr((await admin('GET', '')).json).map(obj);
    expect(all.map((p) => [p.symbol, p.mode])).toEqual([
      ['BTCUSDT', 'held'],
      ['ETHUSDT', 'walk'],
      ['SOLUSDT', 'walk'],
    ]);
    expect((await admin('POST', '/BTCUSDT/extra', { price: x })).status).toBe(404);
  });

  it('refuses prices off the filters, malformed commands and unknown symbols with errors naming them', async () => {
    await trader();
    const refused = async (body: unknown) => {
      const r = await admin('POST', '/BTCUSDT', body);
      expect(r.status).toBe(400);
      return String(obj(r.json).error);
    };
    expect(await refused({ price: '0' })).toContain('"price" must be above 0');
    expect(await refused({ price: '-5' })).toContain('"price" must be above 0');
    expect(await refused({ price: '65000.05' })).toContain("not on BTCUSDT's tick size 0.10");
    expect(await refused({ price: '100.0' })).toContain("below BTCUSDT's min price 261.10");
    expect(await refused({ price: 65000 })).toContain('"price" must be a decimal string');
    expect(await refused({ target: '65000.0' })).toContain('"overMs" must be a whole number of ms');
    expect(await refused({ price: '65000.0', target: '65000.0', overMs: 1 })).toContain('exactly one of');
    expect(
      await refused({
        path: [
          { price: '65000.0', afterMs: 2000 },
          { price: '64000.0', afterMs: 1000 },
        ],
      }),
    ).toContain('"path[1].afterMs" 1000 is before');
    const unknown = await admin('POST', '/XYZUSDT', { price: '1.0' });
    expect(unknown.status).toBe(404);
    expect(obj(unknown.json).error).toContain('No symbol XYZUSDT');
    expect((await admin('DELETE', '/XYZUSDT')).status).toBe(404);
  });
});

describe('orders and positions react to a moved price', () => {
  it('fills a resting buy limit below the price as soon as the price is set below it', async () => {
    const { client, p0 } = await trader();
    const limit = onTick(p0 - 500);
    const placed = obj(
      (await client.signed('POST', '/fapi/v1/order', limitOrder('BTCUSDT', 'BUY', '0.010', limit))).json,
    );
    expect(placed.status).toBe('NEW');
    await admin('POST', '/BTCUSDT', { price: onTick(p0 - 600) });
    // The clock has not moved: the fill comes from the price command itself
    const order = obj(
      (await client.signed('GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: String(placed.orderId) }))
        .json,
    );
    expect(order).toMatchObject({ status: 'FILLED', executedQty: '0.010' });
    expect(Number(order.avgPrice)).toBe(Number(limit));
    const trades = arr((await client.signed('GET', '/fapi/v1/userTrades', { symbol: 'BTCUSDT' })).json).map(
      obj,
    );
    expect(trades).toHaveLength(1);
    expect(trades[0]).toMatchObject({ maker: true, buyer: true });
    expect(Number(trades[0]?.price)).toBe(Number(limit));
  });

  it('triggers a stop-market when a driven path crosses its trigger, not before', async () => {
    const { client, p0 } = await trader();
    await client.signed('POST', '/fapi/v1/order', marketOrder('BTCUSDT', 'BUY', '0.010'));
    const stop = obj(
      (
        await client.signed('POST', '/fapi/v1/algoOrder', {
          algoType: 'CONDITIONAL',
          symbol: 'BTCUSDT',
          side: 'SELL',
          type: 'STOP_MARKET',
          triggerPrice: onTick(p0 - 500),
          closePosition: 'true',
        })
      ).json,
    );
    const drive = await admin('POST', '/BTCUSDT', { target: onTick(p0 - 1000), overMs: 60_000 });
    expect(obj(drive.json)).toMatchObject({ mode: 'path', until: T0 + 60_000 });
    const status = async () =>
      obj((await client.signed('GET', '/fapi/v1/algoOrder', { algoId: String(stop.algoId) })).json);
    // Straight line: 1000 down over 60 s, so the trigger 500 below is reached at 30 s
    step(25_000);
    expect((await status()).algoStatus).toBe('NEW');
    expect(Math.abs((await lastPrice(client)) - (p0 - 1000 * (25 / 60)))).toBeLessThanOrEqual(0.1);
    step(10_000);
    expect(await status()).toMatchObject({ algoStatus: 'FINISHED', triggerTime: T0 + 30_000 });
    const [position] = arr((await client.signed('GET', '/fapi/v3/positionRisk', { symbol: 'BTCUSDT' })).json);
    expect(position).toBeUndefined();
    step(30_000);
    expect(obj((await admin('GET', '/BTCUSDT')).json)).toMatchObject({
      mode: 'held',
      lastPrice: Number(onTick(p0 - 1000)).toFixed(2),
    });
  });

  it('liquidates an isolated long when the price is driven through its liquidation price', async () => {
    const { client, p0 } = await trader('1000');
    await client.signed('POST', '/fapi/v1/marginType', { symbol: 'BTCUSDT', marginType: 'ISOLATED' });
    await client.signed('POST', '/fapi/v1/order', marketOrder('BTCUSDT', 'BUY', '0.010'));
    const events: UserEvent[] = [];
    h.sim.exchange.onUserEvent((_id, e) => events.push(e));
    const [pos] = arr((await client.signed('GET', '/fapi/v3/positionRisk', { symbol: 'BTCUSDT' })).json).map(
      obj,
    );
    const liq = Number(pos?.liquidationPrice);
    expect(liq).toBeLessThan(p0 * 0.96);
    await admin('POST', '/BTCUSDT', {
      path: [
        { price: onTick(liq + 300), afterMs: 10_000 },
        { price: onTick(liq - 300), afterMs: 70_000 },
      ],
    });
    step(20_000);
    expect(
      arr((await client.signed('GET', '/fapi/v3/positionRisk', { symbol: 'BTCUSDT' })).json),
    ).toHaveLength(1);
    step(60_000);
    expect(
      arr((await client.signed('GET', '/fapi/v3/positionRisk', { symbol: 'BTCUSDT' })).json),
    ).toHaveLength(0);
    const closes = events.filter((e) => e.e === 'ORDER_TRADE_UPDATE' && e.o.o === 'LIQUIDATION');
    expect(closes.length).toBeGreaterThan(0);
    const close = closes.at(-1);
    // Closed at the mark, which crossed the liquidation price on the way down
    expect(close?.e === 'ORDER_TRADE_UPDATE' && Number(close.o.L)).toBeLessThan(liq);
    expect(close?.e === 'ORDER_TRADE_UPDATE' && Number(close.o.L)).toBeGreaterThan(liq - 300);
  });
});

describe('market data follows the moved price', () => {
  it('shows it in the ticker, mark price and forming kline over REST, and leaves closed bars alone', async () => {
    const { client, p0 } = await trader();
    const kline = async (interval: string, limit: number) =>
      (await client.get('/fapi/v1/klines', { symbol: 'BTCUSDT', interval, limit })).json as unknown[][];
    const before = await kline('1m', 5);
    step(5000);
    const x = onTick(p0 * 1.1);
    await admin('POST', '/BTCUSDT', { price: x });
    const shown = Number(x).toFixed(2);
    const ticker = obj((await client.get('/fapi/v1/ticker/24hr', { symbol: 'BTCUSDT' })).json);
    expect(ticker).toMatchObject({ lastPrice: shown, highPrice: shown });
    expect(Number(ticker.priceChangePercent)).toBeGreaterThan(5);
    const after = await kline('1m', 5);
    expect(after.slice(0, 4)).toEqual(before.slice(0, 4));
    const forming = after[4] as unknown[];
    expect(forming[0]).toBe(minute(0));
    // open, high, low, close: the minute's walk up to the command, then the jump
    expect(forming[1]).toBe(before[4]?.[1]);
    expect(forming.slice(2, 5)).toEqual([shown, forming[3], shown]);
    expect(Number(forming[3])).toBeLessThan(p0 * 1.01);
    expect((await kline('1h', 1))[0]?.[2]).toBe(shown);
    const mark = obj((await client.get('/fapi/v1/premiumIndex', { symbol: 'BTCUSDT' })).json);
    expect(Math.abs(Number(mark.markPrice) / Number(x) - 1)).toBeLessThan(0.001);
    expect(Math.abs(Number(mark.indexPrice) / Number(x) - 1)).toBeLessThan(0.001);
  });

  it('pushes it on the market streams from the next second', async () => {
    const { p0 } = await trader();
    const s = connect(
      `${h.wsUrl}/market/stream?streams=btcusdt@markPrice@1s/btcusdt@kline_1m/btcusdt@ticker/btcusdt@aggTrade`,
    );
    const book = connect(`${h.wsUrl}/public/ws/btcusdt@bookTicker`);
    await Promise.all([s.opened, book.opened]);
    const x = onTick(p0 * 0.9);
    const shown = Number(x).toFixed(2);
    await admin('POST', '/BTCUSDT', { price: x });
    step(1000);
    step(1000);
    const data = async (stream: string) =>
      obj((await s.next((m) => m.stream === `btcusdt@${stream}` && Number(obj(m.data).E) > T0)).data);
    const k = obj((await data('kline_1m')).k);
    expect(k).toMatchObject({ t: minute(0), c: shown, l: shown, x: false });
    expect((await data('aggTrade')).p).toBe(shown);
    expect((await data('ticker')).c).toBe(shown);
    expect(Math.abs(Number((await data('markPrice@1s')).p) / Number(x) - 1)).toBeLessThan(0.001);
    expect((await book.next((m) => Number(m.E) > T0)).b).toBe(shown);
  });
});

describe('releasing a price', () => {
  it('hands the symbol back to the walk from the set price, without jumping back', async () => {
    const { client, p0 } = await trader();
    const x = onTick(p0 * 0.9);
    await admin('POST', '/BTCUSDT', { price: x });
    step(10_000);
    const released = await admin('DELETE', '/BTCUSDT');
    expect(obj(released.json)).toMatchObject({ mode: 'walk', lastPrice: Number(x).toFixed(2) });
    expect(await lastPrice(client)).toBe(Number(x));
    const prices: number[] = [];
    for (let i = 0; i < 10; i++) {
      step(30_000);
      prices.push(await lastPrice(client));
    }
    // It moves again, and stays near the set price rather than the walk's own level 10% higher
    expect(new Set(prices).size).toBeGreaterThan(5);
    for (const p of prices) expect(Math.abs(p / Number(x) - 1)).toBeLessThan(0.02);
    const klines = (await client.get('/fapi/v1/klines', { symbol: 'BTCUSDT', interval: '1m', limit: 6 }))
      .json as unknown[][];
    // Closed bars of the walk after the release open where the previous one closed
    for (let i = 1; i < 5; i++) expect(klines[i]?.[1]).toBe(klines[i - 1]?.[4]);
  });

  it('is the same for the same seed and commands, through the library API', () => {
    const run = () => {
      const clock = new ManualClock(T0);
      const exchange = new Exchange({ clock, seed: 3, historyDays: 1, symbols: resolveSymbols(['ETHUSDT']) });
      const set = exchange.setPrice('ETHUSDT', {
        path: [
          { price: '2000.00', afterMs: 0 },
          { price: '2100.00', afterMs: 30_000 },
        ],
      });
      expect(set).toMatchObject({ mode: 'path', lastPrice: 2000, target: 2100, until: T0 + 30_000 });
      clock.advance(15_000);
      const midway = exchange.priceControl('ETHUSDT').lastPrice;
      clock.advance(20_000);
      exchange.releasePrice('ETHUSDT');
      const seen = [midway];
      for (let i = 0; i < 5; i++) {
        clock.advance(60_000);
        seen.push(exchange.priceControl('ETHUSDT').lastPrice);
      }
      return seen;
    };
    const first = run();
    expect(first[0]).toBe(2050);
    expect(run()).toEqual(first);
    expect(() =>
      new Exchange({
        clock: new ManualClock(T0),
        historyDays: 1,
        symbols: resolveSymbols(['ETHUSDT']),
      }).setPrice('BTCUSDT', { price: '1.00' }),
    ).toThrow('No symbol BTCUSDT');
  });
});
