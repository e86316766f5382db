import {
  ErrorResponseSchema,
  MarginTypeResponseSchema,
  OrderEventsResponseSchema,
  SymbolConfigResponseSchema,
} from '@kestrel/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExchangeKeys } from '../src/core/exchange/exchange-adapter';
import { bearer, startTestServer, type TestServer } from './helper';

/** Cross/isolated margin and an isolated position's margin, through the real app against the simulator */
describe('margin type and isolated margin', () => {
  let t: TestServer;
  let token: string;
  let keys: ExchangeKeys;

  beforeAll(async () => {
    t = await startTestServer({ simulator: { symbols: ['BTCUSDT'] } });
    const user = await t.connectedUser();
    token = user.auth.access_token;
    keys = user.keys;
    t.sim.exchange.setPrice('BTCUSDT', { price: '50000' });
  });
  afterAll(() => t?.close());

  const post = (url: string, payload: object) =>
    t.request({ method: 'POST', url, headers: bearer(token), payload });
  const get = (url: string) => t.request({ method: 'GET', url, headers: bearer(token) });
  const isolatedWallet = () =>
    [...(t.sim.exchange.accountByKey(keys.apiKey)?.positions.values() ?? [])]
      .find((p) => p.symbol === 'BTCUSDT')
      ?.isolatedWallet.toNumber() ?? 0;

  it('switches to isolated, puts margin in and takes some out, each recorded; refuses what Binance refuses', async () => {
    const switched = await post('/api/futures/margin-type', { symbol: 'BTCUSDT', marginType: 'isolated' });
    expect(switched.statusCode).toBe(200);
    expect(MarginTypeResponseSchema.parse(switched.json()).message).toBe('BTCUSDT uses isolated margin');
    const config = SymbolConfigResponseSchema.parse(
      (await get('/api/futures/symbols/config?symbol=BTCUSDT')).json(),
    );
    expect(config.data.marginType).toBe('isolated');
    // The same type again is no change, not an error
    expect(
      (await post('/api/futures/margin-type', { symbol: 'BTCUSDT', marginType: 'isolated' })).statusCode,
    ).toBe(200);

    const open = await post('/api/futures/orders/create', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '0.010',
    });
    expect(open.statusCode).toBe(201);
    const before = isolatedWallet();
    const added = await post('/api/futures/positions/margin', {
      symbol: 'BTCUSDT',
      action: 'add',
      amount: '12.5',
    });
    expect(added.statusCode).toBe(200);
    expect(added.json().message).toBe("12.5 USDT added to BTCUSDT's margin");
    expect(isolatedWallet()).toBeCloseTo(before + 12.5, 8);
    expect(
      (await post('/api/futures/positions/margin', { symbol: 'BTCUSDT', action: 'remove', amount: '5' }))
        .statusCode,
    ).toBe(200);
    expect(isolatedWallet()).toBeCloseTo(before + 7.5, 8);

    // Binance's refusals in its words: taking out the position's own margin, switching with a position open
    const tooMuch = await post('/api/futures/positions/margin', {
      symbol: 'BTCUSDT',
      action: 'remove',
      amount: '30',
    });
    expect(tooMuch.statusCode).toBe(400);
    expect(ErrorResponseSchema.parse(tooMuch.json()).detail).toMatch(/Isolated balance insufficient/);
    const locked = await post('/api/futures/margin-type', { symbol: 'BTCUSDT', marginType: 'cross' });
    expect(locked.statusCode).toBe(400);
    expect(ErrorResponseSchema.parse(locked.json()).detail).toMatch(
      /cannot be changed if there exists position/,
    );
    const bad = await post('/api/futures/positions/margin', {
      symbol: 'BTCUSDT',
      action: 'take',
      amount: '-1',
    });
    expect(bad.statusCode).toBe(400);

    const events = OrderEventsResponseSchema.parse((await get('/api/v1/orders/events')).json()).data;
    expect(events.map((e) => e.message)).toEqual(
      expect.arrayContaining([
        'BTCUSDT set to isolated margin',
        '12.5 USDT of margin added to the BTCUSDT position',
        '5 USDT of margin taken out of the BTCUSDT position',
      ]),
    );
  });
});
