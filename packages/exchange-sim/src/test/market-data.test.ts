import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERVALS } from '../matching/klines';
import { arr, Client, type Harness, obj, startSim } from './harness';
import { fixture, shapeDiff } from './shape';

let h: Harness;
let client: Client;
beforeAll(async () => {
  h = await startSim();
  client = new Client(h.url, { apiKey: 'x'.repeat(64), secretKey: 'y'.repeat(64) }, h.clock);
});
afterAll(() => h.close());

describe('market data REST', () => {
  it('answers ping and time with the clock time and a weight header', async () => {
    const ping = await client.get('/fapi/v1/ping');
    expect(ping.status).toBe(200);
    expect(ping.json).toEqual({});
    expect(Number(ping.headers.get('x-mbx-used-weight-1m'))).toBeGreaterThan(0);
    const time = await client.get('/fapi/v1/time');
    expect(shapeDiff(fixture('http_get_time.json'), time.json, true)).toEqual([]);
    expect(obj(time.json).serverTime).toBe(h.clock.now());
  });

  it('lists symbols with Binance filters in exchangeInfo', async () => {
    const res = await client.get('/fapi/v1/exchangeInfo');
    expect(shapeDiff(fixture('http_get_exchange_info.json'), res.json)).toEqual([]);
    const btc = arr(obj(res.json).symbols)
      .map(obj)
      .find((s) => s.symbol === 'BTCUSDT');
    const filters = arr(btc?.filters).map(obj);
    expect(filters.map((f) => f.filterType)).toEqual([
      'PRICE_FILTER',
      'LOT_SIZE',
      'MARKET_LOT_SIZE',
      'MAX_NUM_ORDERS',
      'MIN_NOTIONAL',
      'PERCENT_PRICE',
    ]);
    expect(filters.find((f) => f.filterType === 'MIN_NOTIONAL')).toEqual({
      notional: '100',
      filterType: 'MIN_NOTIONAL',
    });
    expect(filters.find((f) => f.filterType === 'PRICE_FILTER')?.tickSize).toBe('0.10');
  });

  it('gives a 24 h ticker whose prices sit on the tick and whose window ends now', async () => {
    const res = await client.get('/fapi/v1/ticker/24hr', { symbol: 'BTCUSDT' });
    expect(shapeDiff(fixture('http_get_ticker_24hr.json'), res.json, true)).toEqual([]);
    const t = obj(res.json);
    expect(t.closeTime).toBe(h.clock.now());
    expect(t.openTime).toBe(h.clock.now() - 86_400_000);
    expect(String(t.lastPrice)).toMatch(/^\d+\.\d$|^\d+\.\d0$/);
    expect(Number(t.highPrice)).toBeGreaterThanOrEqual(Number(t.lowPrice));
    const all = await client.get('/fapi/v1/ticker/24hr');
    expect(arr(all.json)).toHaveLength(3);
    // 40 weight without a symbol, 1 with
    expect(
      Number(all.headers.get('x-mbx-used-weight-1m')) - Number(res.headers.get('x-mbx-used-weight-1m')),
    ).toBe(40);
  });

  it('serves premiumIndex for one symbol as an object and for all as an array', async () => {
    const one = await client.get('/fapi/v1/premiumIndex', { symbol: 'ETHUSDT' });
    expect(shapeDiff(fixture('http_get_premium_index.json'), one.json, true)).toEqual([]);
    const p = obj(one.json);
    expect(p.nextFundingTime).toBe(Date.UTC(2026, 0, 15, 16));
    expect(Math.abs(Number(p.markPrice) / Number(p.indexPrice) - 1)).toBeLessThan(0.002);
    expect(arr((await client.get('/fapi/v1/premiumIndex')).json)).toHaveLength(3);
  });

  it('returns klines in Binance array form for every interval', async () => {
    for (const interval of INTERVALS) {
      const res = await client.get('/fapi/v1/klines', { symbol: 'BTCUSDT', interval, limit: 3 });
      expect(res.status, interval).toBe(200);
      const rows = arr(res.json);
      expect(rows.length, interval).toBeGreaterThan(0);
      expect(shapeDiff(fixture('http_get_klines.json'), rows, true)).toEqual([]);
      const last = arr(rows[rows.length - 1]);
      expect(Number(last[0])).toBeLessThanOrEqual(h.clock.now());
      expect(Number(last[6])).toBeGreaterThanOrEqual(h.clock.now());
    }
  });

  it('honours limit, default 500 and max 1500, with weight by limit', async () => {
    const def = await client.get('/fapi/v1/klines', { symbol: 'BTCUSDT', interval: '1m' });
    expect(arr(def.json)).toHaveLength(500);
    const max = await client.get('/fapi/v1/klines', { symbol: 'BTCUSDT', interval: '1m', limit: 1500 });
    expect(arr(max.json)).toHaveLength(1500);
    expect(
      Number(max.headers.get('x-mbx-used-weight-1m')) - Number(def.headers.get('x-mbx-used-weight-1m')),
    ).toBe(10);
    const over = await client.get('/fapi/v1/klines', { symbol: 'BTCUSDT', interval: '1m', limit: 1501 });
    expect(over.status).toBe(400);
    expect(obj(over.json).code).toBe(-1130);
  });

  it('selects klines from startTime forward', async () => {
    const start = Date.UTC(2026, 0, 14, 0, 0);
    const res = await client.get('/fapi/v1/klines', {
      symbol: 'ETHUSDT',
      interval: '1h',
      startTime: start,
      limit: 5,
    });
    expect(arr(res.json).map((r) => arr(r)[0])).toEqual([0, 1, 2, 3, 4].map((i) => start + i * 3_600_000));
  });

  it('rejects unknown symbols and intervals with Binance codes', async () => {
    const sym = await client.get('/fapi/v1/klines', { symbol: 'NOPEUSDT', interval: '1m' });
    expect(sym.status).toBe(400);
    expect(sym.json).toEqual(fixture('http_error_symbol.json'));
    const iv = await client.get('/fapi/v1/klines', { symbol: 'BTCUSDT', interval: '7m' });
    expect(iv.json).toEqual({ code: -1120, msg: 'Invalid interval.' });
    const missing = await client.get('/fapi/v1/klines', { symbol: 'BTCUSDT' });
    expect(obj(missing.json).code).toBe(-1102);
  });

  it('answers 404 for paths Binance does not have', async () => {
    expect((await client.get('/fapi/v9/nothing')).status).toBe(404);
  });
});
