import { EntryProtectionsResponseSchema } from '@kestrel/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ExchangeKeys } from '../src/core/exchange/exchange-adapter';
import { ManualClock } from '../src/lib/clock';
import { PROTECTION_CHECK_MS } from '../src/trading/futures/entry-protections';
import { bearer, startTestServer, type TestServer } from './helper';

/**
 * The TP/SL follower's own round on the injected clock: a LIMIT entry that fills gets its stop-loss on the exchange
 * at the next round (every PROTECTION_CHECK_MS, 2 s), not before, with no sweep run by hand
 */
describe('TP/SL follower round', () => {
  let t: TestServer;
  let token: string;
  let keys: ExchangeKeys;
  const clock = new ManualClock(Date.UTC(2026, 0, 15, 12));

  beforeAll(async () => {
    t = await startTestServer({ simulator: { symbols: ['BTCUSDT'] }, deps: { clock } });
    const user = await t.connectedUser();
    token = user.auth.access_token;
    keys = user.keys;
  });
  afterAll(() => t?.close());

  const stopsOnExchange = () =>
    [...(t.sim.exchange.accountByKey(keys.apiKey)?.algoOrders.values() ?? [])].filter(
      (o) => o.symbol === 'BTCUSDT' && o.status === 'NEW' && o.orderType === 'STOP_MARKET',
    );

  it('is 2 s, and places a filled entry’s stop-loss on its first round after the fill', async () => {
    expect(PROTECTION_CHECK_MS).toBe(2_000);
    t.sim.exchange.setPrice('BTCUSDT', { price: '50000' });
    const res = await t.request({
      method: 'POST',
      url: '/api/futures/orders/create',
      headers: bearer(token),
      payload: {
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'LIMIT',
        timeInForce: 'GTC',
        quantity: '0.010',
        price: '49000',
        clientOrderId: 'timer-entry',
        protection: { stopLoss: '47500' },
      },
    });
    expect(res.statusCode).toBe(201);
    // The entry fills on the exchange; nothing on the server has looked yet
    t.sim.exchange.setPrice('BTCUSDT', { price: '48900' });
    t.sim.tick();

    await clock.advance(PROTECTION_CHECK_MS - 1);
    expect(stopsOnExchange()).toEqual([]);
    await clock.advance(1);
    await vi.waitFor(() => expect(stopsOnExchange()).toHaveLength(1), { timeout: 30_000 });
    expect(stopsOnExchange()[0]?.triggerPrice.toString()).toBe('47500');
    const listed = EntryProtectionsResponseSchema.parse(
      (
        await t.request({ method: 'GET', url: '/api/futures/orders/protections', headers: bearer(token) })
      ).json(),
    ).data;
    expect(listed.find((p) => p.entryClientOrderId === 'timer-entry')).toMatchObject({ state: 'placed' });
  });
});
