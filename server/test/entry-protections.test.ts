import {
  EntryProtectionsResponseSchema,
  ErrorResponseSchema,
  FuturesOrderResponseSchema,
} from '@kestrel/contracts';
import { NotificationListResponseSchema } from '@kestrel/contracts/account';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ExchangeKeys } from '../src/core/exchange/exchange-adapter';
import { bearer, startTestServer, type TestServer } from './helper';

/**
 * TP/SL attached to an entry, through the real app against the simulator: recorded before the entry is sent, placed
 * on the exchange once it fills (the follower's sweep is run by hand here), never twice, never for an entry that
 * ended without a fill, and a refusal told to the user
 */
describe('TP/SL attached to an entry', () => {
  let t: TestServer;
  let token: string;
  let keys: ExchangeKeys;

  beforeAll(async () => {
    t = await startTestServer({
      simulator: { symbols: ['BTCUSDT'] },
      // The sweep never runs on its own: each test sweeps when it has moved the market
      deps: { protectionCheckMs: 3_600_000 },
    });
    const user = await t.connectedUser();
    token = user.auth.access_token;
    keys = user.keys;
  });
  afterAll(() => t?.close());

  const account = () => {
    const a = t.sim.exchange.accountByKey(keys.apiKey);
    if (!a) throw new Error('no simulator account');
    return a;
  };
  beforeEach(async () => {
    t.sim.exchange.setPrice('BTCUSDT', { price: '50000' });
    t.sim.exchange.cancelAll(account(), 'BTCUSDT');
    // Flat again: a market close of whatever an earlier test left
    const amt = [...account().positions.values()].find((p) => p.symbol === 'BTCUSDT')?.amt;
    if (amt && !amt.isZero()) {
      await create({
        symbol: 'BTCUSDT',
        side: amt.isPositive() ? 'SELL' : 'BUY',
        type: 'MARKET',
        quantity: amt.abs().toString(),
        reduceOnly: true,
      });
    }
    t.sim.exchange.cancelAllAlgo(account(), 'BTCUSDT');
  });

  let n = 0;
  const create = (body: object) =>
    t.request({ method: 'POST', url: '/api/futures/orders/create', headers: bearer(token), payload: body });
  const entry = (over: object = {}) => ({
    symbol: 'BTCUSDT',
    side: 'BUY',
    type: 'LIMIT',
    timeInForce: 'GTC',
    quantity: '0.010',
    price: '49000',
    clientOrderId: `e-${++n}-${Date.now()}`,
    ...over,
  });
  const protections = async () =>
    EntryProtectionsResponseSchema.parse(
      (
        await t.request({ method: 'GET', url: '/api/futures/orders/protections', headers: bearer(token) })
      ).json(),
    ).data;
  const protectionOf = async (clientOrderId: string) =>
    (await protections()).find((p) => p.entryClientOrderId === clientOrderId);
  /** The simulator's waiting conditional orders of BTCUSDT: what is on the exchange */
  const waitingOnExchange = () =>
    [...account().algoOrders.values()]
      .filter((o) => o.symbol === 'BTCUSDT' && o.status === 'NEW')
      .map((o) => ({
        type: o.orderType,
        side: o.side,
        trigger: o.triggerPrice.toString(),
        closePosition: o.closePosition,
        workingType: o.workingType,
      }))
      .sort((a, b) => a.type.localeCompare(b.type));

  it('a MARKET entry gets both on the exchange at once: close-position orders at the mark price', async () => {
    const body = entry({
      type: 'MARKET',
      price: undefined,
      timeInForce: undefined,
      protection: { takeProfit: '52000', stopLoss: '48000' },
    });
    const res = await create(body);
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe('Order placed; its TP/SL goes on once it fills');
    expect(FuturesOrderResponseSchema.parse(res.json()).data.status).toBe('FILLED');
    expect(waitingOnExchange()).toEqual([
      { type: 'STOP_MARKET', side: 'SELL', trigger: '48000', closePosition: true, workingType: 'MARK_PRICE' },
      {
        type: 'TAKE_PROFIT_MARKET',
        side: 'SELL',
        trigger: '52000',
        closePosition: true,
        workingType: 'MARK_PRICE',
      },
    ]);
    expect(await protectionOf(body.clientOrderId)).toMatchObject({
      state: 'placed',
      takeProfit: '52000',
      stopLoss: '48000',
      detail: null,
    });
    // A sweep (another instance's, or a restart's) places nothing again
    await t.app.entryProtections.sweep();
    expect(waitingOnExchange()).toHaveLength(2);
  });

  it('a LIMIT entry waits on the server until it fills, then its stop-loss goes on, once', async () => {
    const body = entry({ protection: { stopLoss: '47500' } });
    expect((await create(body)).statusCode).toBe(201);
    await t.app.entryProtections.sweep();
    expect(waitingOnExchange()).toEqual([]);
    expect(await protectionOf(body.clientOrderId)).toMatchObject({ state: 'waiting', stopLoss: '47500' });

    t.sim.exchange.setPrice('BTCUSDT', { price: '48900' });
    t.sim.tick();
    await t.app.entryProtections.sweep();
    await t.app.entryProtections.sweep();
    expect(waitingOnExchange()).toEqual([
      { type: 'STOP_MARKET', side: 'SELL', trigger: '47500', closePosition: true, workingType: 'MARK_PRICE' },
    ]);
    expect(await protectionOf(body.clientOrderId)).toMatchObject({ state: 'placed' });
  });

  it('an entry canceled before any fill places nothing', async () => {
    const body = entry({ protection: { takeProfit: '51000', stopLoss: '48000' } });
    const placed = FuturesOrderResponseSchema.parse((await create(body)).json()).data;
    const cancel = await t.request({
      method: 'POST',
      url: `/api/futures/orders/${placed.orderId}/cancel`,
      headers: bearer(token),
      payload: { symbol: 'BTCUSDT' },
    });
    expect(cancel.statusCode).toBe(200);
    await t.app.entryProtections.sweep();
    expect(waitingOnExchange()).toEqual([]);
    expect(await protectionOf(body.clientOrderId)).toMatchObject({
      state: 'canceled',
      detail: 'The entry ended canceled without a fill',
    });
  });

  it('refuses a TP/SL on the wrong side of the entry, or on an order that opens nothing, before sending', async () => {
    const cases: Array<[object, string]> = [
      [
        { protection: { takeProfit: '48000' } },
        "A long entry's take-profit must be above its limit price 49000",
      ],
      [{ protection: { stopLoss: '49500' } }, "A long entry's stop-loss must be below its limit price 49000"],
      [
        { side: 'SELL', price: '51000', protection: { stopLoss: '50500' } },
        "A short entry's stop-loss must be above its limit price 51000",
      ],
      [
        { type: 'MARKET', price: undefined, timeInForce: undefined, protection: { takeProfit: '49000' } },
        "A long entry's take-profit must be above the last price 50000",
      ],
      [
        { reduceOnly: true, protection: { stopLoss: '48000' } },
        'A reduce-only order opens nothing to protect: set the TP/SL on the position instead',
      ],
      [{ protection: {} }, 'protection needs a takeProfit, a stopLoss or both'],
    ];
    for (const [over, message] of cases) {
      const body = entry(over);
      const res = await create(body);
      expect(res.statusCode, message).toBe(400);
      const error = ErrorResponseSchema.parse(res.json());
      expect([error.detail, ...(error.issues ?? []).map((e) => e.message)].join(' | ')).toContain(message);
      expect(await protectionOf(body.clientOrderId)).toBeUndefined();
    }
    expect([...account().orders.values()].filter((o) => o.status === 'NEW')).toEqual([]);
  });

  it('a stop the market has passed by the fill is refused: the row says so and the user is told', async () => {
    const body = entry({ protection: { stopLoss: '48500' } });
    expect((await create(body)).statusCode).toBe(201);
    // The market falls through the entry and past the stop before the follower looks
    t.sim.exchange.setPrice('BTCUSDT', { price: '48000' });
    t.sim.tick();
    await t.app.entryProtections.sweep();
    expect(waitingOnExchange()).toEqual([]);
    const failed = await protectionOf(body.clientOrderId);
    expect(failed?.state).toBe('failed');
    expect(failed?.detail).toMatch(/^The entry filled but its stop-loss was refused: .*immediately trigger/i);
    const list = NotificationListResponseSchema.parse(
      (await t.request({ method: 'GET', url: '/api/v1/notifications', headers: bearer(token) })).json(),
    ).data;
    expect(list.items[0]).toMatchObject({ event: 'protection_failed', title: 'BTCUSDT: TP/SL not placed' });
  });
});
