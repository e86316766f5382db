import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ManualClock, SimServer } from '@kestrel/exchange-sim';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HttpError } from '../../lib/http-error';
import { ExchangeUnreachableError } from '../credentials/exchange-probe';
import { adapterProbe } from './adapter-probe';
import { BinanceUsdmAdapter } from './binance-adapter';
import {
  ExchangeApiError,
  type ExchangeKeys,
  ExchangeRateLimitError,
  ExchangeResponseError,
  ExchangeUnavailableError,
  OrderStatusUnknownError,
} from './exchange-adapter';
import { exchangeHttpError } from './exchange-http-error';
import { exchangeCallsAs } from './weight-budget';

// The simulator's clock sits months away from the machine's: every signed call proves the offset sync works
const T0 = Date.UTC(2026, 0, 15, 9, 30, 20);

let sim: SimServer;
let url: string;
let clock: ManualClock;

beforeEach(async () => {
  clock = new ManualClock(T0);
  sim = new SimServer({ clock, historyDays: 3, seed: 7, symbols: ['BTCUSDT', 'SOLUSDT'] });
  ({ url } = await sim.listen(0));
});
afterEach(() => sim.close());

async function admin(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${url}/_sim${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`admin ${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/**
 * Makes the simulator fail the next `method path` request once, with an HTTP status or a timeout, either `before` it
 * reaches the exchange (nothing happened) or `after` (it happened, the answer is lost)
 */
function failOnce(
  method: 'GET' | 'POST',
  path: string,
  phase: 'before' | 'after',
  failure: number | 'timeout',
) {
  const kind = failure === 'timeout' ? { kind: 'timeout' } : { kind: 'error', status: failure };
  return admin('POST', '/faults', { ...kind, method, path, phase, remaining: 1 });
}

async function account(body: object = { balances: { USDT: '1000' } }): Promise<ExchangeKeys> {
  const created = await admin('POST', '/accounts', body);
  return { apiKey: String(created.apiKey), secretKey: String(created.secretKey) };
}

const adapterFor = (options: { timeoutMs?: number } = {}) =>
  new BinanceUsdmAdapter({ restUrl: url, walletUrl: url, timeoutMs: options.timeoutMs ?? 2000 });

const limitBuy = { symbol: 'SOLUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '50.00' } as const;

async function openOrderCount(keys: ExchangeKeys): Promise<number> {
  return (await adapterFor().openOrders(keys, 'SOLUSDT')).length;
}

describe('BinanceUsdmAdapter against the simulator', () => {
  it('keeps the clock offset to the exchange and signs with it', async () => {
    const adapter = adapterFor();
    const offset = await adapter.syncTime();
    expect(Math.abs(Date.now() + offset - T0)).toBeLessThan(1000);
    const keys = await account();
    const snapshot = await adapter.account(keys);
    expect(snapshot.totalWalletBalance).toMatch(/^1000(\.0+)?$/);
    expect(snapshot.assets.map((a) => a.asset)).toContain('USDT');
  });

  it('re-syncs after -1021 when the exchange clock jumps, then succeeds', async () => {
    const adapter = adapterFor();
    const keys = await account();
    await adapter.account(keys);
    clock.set(T0 + 60_000);
    sim.tick();
    await expect(adapter.account(keys)).resolves.toBeDefined();
    expect(Math.abs(Date.now() + adapter.clockOffsetMs - (T0 + 60_000))).toBeLessThan(1000);
  });

  it('keeps order ids above 2^53 exact', async () => {
    const keys = await account();
    const adapter = adapterFor();
    const order = await adapter.placeOrder(keys, { ...limitBuy, clientOrderId: 'big-id-1' });
    // The simulator's ids start above 2^53 by default, like real ETHUSDT ids
    expect(BigInt(order.orderId) > 2n ** 53n).toBe(true);
    const [open] = await adapter.openOrders(keys, 'SOLUSDT');
    expect(open?.orderId).toBe(order.orderId);
    const canceled = await adapter.cancelOrder(keys, 'SOLUSDT', { orderId: order.orderId });
    expect(canceled).toMatchObject({ orderId: order.orderId, status: 'CANCELED', clientOrderId: 'big-id-1' });
  });

  it('places orders under our client order id and finds them again by it', async () => {
    const keys = await account();
    const adapter = adapterFor();
    const placed = await adapter.placeOrder(keys, limitBuy);
    expect(placed.clientOrderId).toMatch(/^kst-/);
    expect(placed).toMatchObject({ status: 'NEW', quantity: '1', side: 'BUY' });
    expect(Number(placed.price)).toBe(50);
    expect((await adapter.findOrder(keys, 'SOLUSDT', placed.clientOrderId))?.orderId).toBe(placed.orderId);
    expect(await adapter.findOrder(keys, 'SOLUSDT', 'never-sent')).toBeUndefined();
    const canceled = await adapter.cancelOrder(keys, 'SOLUSDT', { clientOrderId: placed.clientOrderId });
    expect(canceled.status).toBe('CANCELED');
  });

  it("passes the exchange's own rejection through as a typed error", async () => {
    const keys = await account();
    const err = await adapterFor()
      .placeOrder(keys, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.001', price: '1000' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExchangeApiError);
    expect((err as ExchangeApiError).message).toMatch(/notional must be no smaller than/);
  });

  it('reads positions, leverage, ticker and klines in domain terms', async () => {
    const keys = await account();
    const adapter = adapterFor();
    expect(await adapter.setLeverage(keys, 'SOLUSDT', 7)).toEqual({ symbol: 'SOLUSDT', leverage: 7 });
    const filled = await adapter.placeOrder(keys, {
      symbol: 'SOLUSDT',
      side: 'SELL',
      type: 'MARKET',
      quantity: '2',
    });
    expect(filled.status).toBe('FILLED');
    const [position] = (await adapter.positions(keys, 'SOLUSDT')).filter((p) => Number(p.amount) !== 0);
    expect(position).toMatchObject({ symbol: 'SOLUSDT', amount: '-2' });
    const ticker = await adapter.ticker('SOLUSDT');
    expect(Number(ticker.lastPrice)).toBeGreaterThan(0);
    const bars = await adapter.klines('SOLUSDT', '1h', 5);
    expect(bars).toHaveLength(5);
    expect(bars[1]?.openTime ?? 0 - (bars[0]?.openTime ?? 0)).toBeGreaterThan(0);
    expect(Number(bars[4]?.high)).toBeGreaterThanOrEqual(Number(bars[4]?.low));
  });

  it("reads a symbol's leverage brackets with the account's keys, and passes the refusal of an unknown symbol", async () => {
    const adapter = adapterFor();
    const keys = await account();
    const tiers = await adapter.leverageBrackets(keys, 'SOLUSDT');
    // The same table the exchange answers to any signed client
    const raw = sim.exchange.market('SOLUSDT').spec.brackets;
    expect(tiers).toEqual(
      raw.map((b) => ({
        bracket: b.bracket,
        initialLeverage: b.initialLeverage,
        notionalFloor: b.notionalFloor,
        notionalCap: b.notionalCap,
        maintMarginRatio: b.maintMarginRatio,
        cum: b.cum,
      })),
    );
    expect(tiers?.[0]).toMatchObject({ bracket: 1, notionalFloor: 0 });
    const refused = await adapter.leverageBrackets(keys, 'NOPEUSDT').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ExchangeApiError);
    expect((refused as ExchangeApiError).code).toBe(-1121);
    // Signed: without a key the exchange knows there are no brackets
    const unknownKey = await adapter
      .leverageBrackets({ apiKey: 'nope', secretKey: 'nope' }, 'SOLUSDT')
      .catch((e: unknown) => e);
    expect(unknownKey).toBeInstanceOf(ExchangeApiError);
    expect((unknownKey as ExchangeApiError).code).toBe(-2014);
  });

  it('places GTD orders that the exchange expires at their goodTillDate', async () => {
    const keys = await account();
    const adapter = adapterFor();
    const expiry = T0 + 15 * 60_000;
    const placed = await adapter.placeOrder(keys, { ...limitBuy, timeInForce: 'GTD', goodTillDate: expiry });
    expect(placed).toMatchObject({ status: 'NEW', timeInForce: 'GTD', goodTillDate: expiry });
    const tooSoon = await adapter
      .placeOrder(keys, { ...limitBuy, timeInForce: 'GTD', goodTillDate: T0 + 60_000 })
      .catch((e: unknown) => e);
    expect((tooSoon as ExchangeApiError).code).toBe(-5040);
    clock.set(expiry);
    sim.tick();
    expect((await adapter.findOrder(keys, 'SOLUSDT', placed.clientOrderId))?.status).toBe('EXPIRED');
    await expect(adapter.placeOrder(keys, { ...limitBuy, timeInForce: 'GTD' })).rejects.toThrow(
      'timeInForce GTD is for LIMIT orders, with a goodTillDate',
    );
  });

  it('reports key permissions from apiRestrictions', async () => {
    const adapter = adapterFor();
    expect(await adapter.keyPermissions(await account())).toMatchObject({
      canWithdraw: false,
      canTradeFutures: true,
    });
    const risky = await account({ permissions: { enableWithdrawals: true } });
    expect((await adapter.keyPermissions(risky)).canWithdraw).toBe(true);
  });
});

describe('order placement under faults: no duplicate, no lost order', () => {
  it('a 5xx after the order was executed returns the placed order (found by client order id)', async () => {
    const keys = await account();
    await failOnce('POST', '/fapi/v1/order', 'after', 503);
    const order = await adapterFor().placeOrder(keys, { ...limitBuy, clientOrderId: 'after-5xx' });
    expect(order).toMatchObject({ clientOrderId: 'after-5xx', status: 'NEW' });
    expect(await openOrderCount(keys)).toBe(1);
  });

  it('a timeout after execution is resolved the same way, and the POST is not sent twice', async () => {
    const keys = await account();
    await failOnce('POST', '/fapi/v1/order', 'after', 'timeout');
    const order = await adapterFor({ timeoutMs: 300 }).placeOrder(keys, {
      ...limitBuy,
      clientOrderId: 'after-timeout',
    });
    expect(order.clientOrderId).toBe('after-timeout');
    expect(await openOrderCount(keys)).toBe(1);
  });

  it('a 5xx before execution says clearly that the order was not placed', async () => {
    const keys = await account();
    await failOnce('POST', '/fapi/v1/order', 'before', 502);
    const err = await adapterFor()
      .placeOrder(keys, { ...limitBuy, clientOrderId: 'before-5xx' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExchangeUnavailableError);
    expect((err as Error).message).toMatch(/HTTP 502.*order before-5xx was not placed/);
    expect(await openOrderCount(keys)).toBe(0);
  });

  it('when the lookup fails too, the order is reported unknown with its client order id', async () => {
    const keys = await account();
    await failOnce('POST', '/fapi/v1/order', 'after', 500);
    await failOnce('GET', '/fapi/v1/order', 'before', 500);
    const err = await adapterFor()
      .placeOrder(keys, { ...limitBuy, clientOrderId: 'lost-answer' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OrderStatusUnknownError);
    expect((err as OrderStatusUnknownError).clientOrderId).toBe('lost-answer');
    // The order did reach the exchange: it is not lost, a later lookup finds it
    expect((await adapterFor().findOrder(keys, 'SOLUSDT', 'lost-answer'))?.status).toBe('NEW');
    expect(await openOrderCount(keys)).toBe(1);
  });

  it('an exchange that is down gives a clear "cannot reach" error and places nothing', async () => {
    const keys = await account();
    const adapter = adapterFor();
    await sim.close();
    const err = await adapter.placeOrder(keys, limitBuy).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExchangeUnavailableError);
    expect((err as ExchangeUnavailableError).maybeExecuted).toBe(false);
    expect((err as Error).message).toMatch(/cannot reach 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
    // afterEach closes again: harmless
    sim = new SimServer({ clock, historyDays: 1 });
  });
});

describe('request weight', () => {
  async function restart(weightPerMinute: number) {
    await sim.close();
    sim = new SimServer({ clock, historyDays: 1, symbols: ['SOLUSDT'], rateLimits: { weightPerMinute } });
    ({ url } = await sim.listen(0));
  }

  it('refuses a user past their share at once, lets another user through, and makes a download wait instead', async () => {
    await restart(40);
    const waits: number[] = [];
    const adapter = new BinanceUsdmAdapter({
      restUrl: url,
      weightLimit: 40,
      budget: { userShare: 0.25 },
      // The budget's minute and the exchange's follow the simulator's clock; waiting moves it: no real sleep
      now: () => clock.now(),
      sleep: async (ms) => {
        waits.push(ms);
        clock.set(clock.now() + ms);
        sim.tick();
      },
    });
    // Distinct page sizes: each is its own upstream call (the same one would be served from the shared cache)
    const outcomes: unknown[] = [];
    for (let i = 0; i < 15; i++) {
      outcomes.push(
        await exchangeCallsAs({ caller: 'user:a' }, () => adapter.klines('SOLUSDT', '1m', 10 + i)).then(
          () => 'ok',
          (e: unknown) => e,
        ),
      );
    }
    // This user's share is a quarter of the minute: 10 of 40
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(10);
    const refused = outcomes.find((o) => o !== 'ok');
    expect(refused).toBeInstanceOf(ExchangeRateLimitError);
    expect((refused as Error).message).toMatch(/^You have used your share of the exchange's request budget/);
    expect((refused as ExchangeRateLimitError).retryAfterMs).toBeGreaterThan(0);
    expect((refused as ExchangeRateLimitError).retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(waits).toEqual([]);
    await exchangeCallsAs({ caller: 'user:b' }, () => adapter.ticker('SOLUSDT'));

    // A download's pages wait for the next minute once downloads have used half of it; none is refused
    const from = clock.now() - 2 * 86_400_000;
    for (let i = 0; i < 25; i++) {
      await exchangeCallsAs({ caller: 'user:c', lane: 'background' }, () =>
        adapter.klines('SOLUSDT', '1m', 5, { startTime: from + i * 300_000 }),
      );
    }
    expect(waits.length).toBeGreaterThanOrEqual(1);
    for (const ms of waits) expect(ms).toBeLessThanOrEqual(60_000);
  });

  it('serves one upstream call to many users asking for the same ticker at once', async () => {
    const adapter = adapterFor();
    await adapter.syncTime();
    // Counted in the exchange's minute now that the clock offset is known
    await adapter.ping();
    const before = adapter.client.usedWeight;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        exchangeCallsAs({ caller: `user:${i}` }, () => adapter.ticker('SOLUSDT')),
      ),
    );
    expect(new Set(answers.map((a) => a.lastPrice)).size).toBe(1);
    expect(adapter.client.usedWeight - before).toBe(1);
  });

  it('stops calling once the exchange answers 429, until Retry-After has passed', async () => {
    await restart(3);
    const adapter = adapterFor();
    let err: unknown;
    for (let i = 0; i < 6 && !err; i++) await adapter.ping().catch((e: unknown) => (err = e));
    expect(err).toBeInstanceOf(ExchangeRateLimitError);
    expect((err as ExchangeRateLimitError).retryAfterMs).toBeGreaterThan(0);
    // The next call fails at once, without reaching the exchange
    const used = adapter.client.usedWeight;
    await expect(adapter.ping()).rejects.toBeInstanceOf(ExchangeRateLimitError);
    expect(adapter.client.usedWeight).toBe(used);
  });
});

describe('conditional orders through /fapi/v1/algoOrder, in domain terms', () => {
  /** A price `factor` × the last price of SOLUSDT, on its 0.01 tick */
  async function solPrice(factor: number): Promise<string> {
    const last = Number((await adapterFor().ticker('SOLUSDT')).lastPrice);
    return (Math.floor(last * factor * 100) / 100).toFixed(2);
  }

  it('places stop, take-profit and trailing orders, lists them beside plain orders, and cancels each kind', async () => {
    const keys = await account();
    const adapter = adapterFor();
    await adapter.placeOrder(keys, { symbol: 'SOLUSDT', side: 'BUY', type: 'MARKET', quantity: '1' });
    const plain = await adapter.placeOrder(keys, { ...limitBuy, clientOrderId: 'plain-1' });
    const stop = await adapter.placeOrder(keys, {
      symbol: 'SOLUSDT',
      side: 'SELL',
      type: 'STOP_MARKET',
      triggerPrice: await solPrice(0.5),
      closePosition: true,
      workingType: 'MARK_PRICE',
      clientOrderId: 'stop-1',
    });
    expect(stop).toMatchObject({
      kind: 'conditional',
      type: 'STOP_MARKET',
      status: 'NEW',
      clientOrderId: 'stop-1',
      closePosition: true,
      workingType: 'MARK_PRICE',
      triggeredOrderId: null,
    });
    expect(Number(stop.triggerPrice)).toBe(Number(await solPrice(0.5)));
    const takeProfit = await adapter.placeOrder(keys, {
      symbol: 'SOLUSDT',
      side: 'SELL',
      type: 'TAKE_PROFIT',
      quantity: '1',
      price: await solPrice(1.5),
      triggerPrice: await solPrice(1.5),
      reduceOnly: true,
    });
    expect(takeProfit).toMatchObject({
      kind: 'conditional',
      type: 'TAKE_PROFIT',
      quantity: '1',
      reduceOnly: true,
    });
    const trailing = await adapter.placeOrder(keys, {
      symbol: 'SOLUSDT',
      side: 'SELL',
      type: 'TRAILING_STOP_MARKET',
      quantity: '1',
      callbackRate: '2',
      reduceOnly: true,
    });
    expect(trailing).toMatchObject({
      type: 'TRAILING_STOP_MARKET',
      callbackRate: '2',
      activationPrice: null,
    });

    const open = await adapter.openOrders(keys);
    expect(open.map((o) => `${o.kind}:${o.clientOrderId}`).sort()).toEqual(
      [
        'order:plain-1',
        'conditional:stop-1',
        `conditional:${takeProfit.clientOrderId}`,
        `conditional:${trailing.clientOrderId}`,
      ].sort(),
    );

    // The kind says which book to cancel in; without it the plain book is tried first, then the conditional one
    const canceledStop = await adapter.cancelOrder(keys, 'SOLUSDT', {
      orderId: stop.orderId,
      kind: 'conditional',
    });
    expect(canceledStop).toMatchObject({ kind: 'conditional', status: 'CANCELED', clientOrderId: 'stop-1' });
    const canceledTp = await adapter.cancelOrder(keys, 'SOLUSDT', { orderId: takeProfit.orderId });
    expect(canceledTp).toMatchObject({ kind: 'conditional', status: 'CANCELED' });
    const canceledPlain = await adapter.cancelOrder(keys, 'SOLUSDT', { orderId: plain.orderId });
    expect(canceledPlain).toMatchObject({ kind: 'order', status: 'CANCELED' });
    const again = await adapter
      .cancelOrder(keys, 'SOLUSDT', { orderId: plain.orderId })
      .catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ExchangeApiError);
    expect((again as ExchangeApiError).code).toBe(-2011);
    expect((await adapter.openOrders(keys, 'SOLUSDT')).map((o) => o.orderId)).toEqual([trailing.orderId]);

    const history = await adapter.orderHistory(keys, 'SOLUSDT', 100);
    expect(history.filter((o) => o.kind === 'conditional')).toHaveLength(3);
    expect(history.find((o) => o.orderId === stop.orderId)?.status).toBe('CANCELED');
  });

  it('reports a fired stop as FINISHED with the id of the order it placed', async () => {
    const keys = await account();
    const adapter = adapterFor();
    await adapter.placeOrder(keys, { symbol: 'SOLUSDT', side: 'BUY', type: 'MARKET', quantity: '1' });
    // A sell stop a hair below the price: the seeded walk crosses it within the simulated hours
    const stop = await adapter.placeOrder(keys, {
      symbol: 'SOLUSDT',
      side: 'SELL',
      type: 'STOP_MARKET',
      triggerPrice: await solPrice(0.999),
      closePosition: true,
    });
    let fired = stop;
    for (let m = 1; m <= 600 && fired.status === 'NEW'; m += 10) {
      clock.set(T0 + m * 60_000);
      sim.tick();
      const found = await adapter.findOrder(keys, 'SOLUSDT', stop.clientOrderId, 'conditional');
      if (found) fired = found;
    }
    expect(fired.status).toBe('FINISHED');
    expect(fired.triggeredOrderId).toMatch(/^\d+$/);
    const history = await adapter.orderHistory(keys, 'SOLUSDT', 10);
    const placed = history.find((o) => o.kind === 'order' && o.orderId === fired.triggeredOrderId);
    expect(placed).toMatchObject({ type: 'MARKET', status: 'FILLED', executedQuantity: '1' });
  });

  it("passes the exchange's refusal of a trigger that would fire at once", async () => {
    const keys = await account();
    const err = await adapterFor()
      .placeOrder(keys, {
        symbol: 'SOLUSDT',
        side: 'SELL',
        type: 'STOP_MARKET',
        quantity: '1',
        triggerPrice: await solPrice(1.2),
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExchangeApiError);
    expect((err as ExchangeApiError).message).toBe('Order would immediately trigger.');
  });

  it('says what a conditional order lacks before asking the exchange', async () => {
    const keys = await account();
    const adapter = adapterFor();
    const used = adapter.client.usedWeight;
    await expect(
      adapter.placeOrder(keys, { symbol: 'SOLUSDT', side: 'SELL', type: 'STOP_MARKET', quantity: '1' }),
    ).rejects.toThrow('A STOP_MARKET order needs a triggerPrice');
    await expect(
      adapter.placeOrder(keys, {
        symbol: 'SOLUSDT',
        side: 'SELL',
        type: 'TRAILING_STOP_MARKET',
        quantity: '1',
      }),
    ).rejects.toThrow('A TRAILING_STOP_MARKET order needs a callbackRate');
    await expect(
      adapter.placeOrder(keys, {
        symbol: 'SOLUSDT',
        side: 'SELL',
        type: 'TAKE_PROFIT',
        quantity: '1',
        triggerPrice: '10',
      }),
    ).rejects.toThrow('A TAKE_PROFIT order needs a price');
    expect(adapter.client.usedWeight).toBe(used);
  });

  it('a 5xx after a conditional order was accepted returns it (found by its client id), never sent twice', async () => {
    const keys = await account();
    await failOnce('POST', '/fapi/v1/algoOrder', 'after', 503);
    const order = await adapterFor().placeOrder(keys, {
      symbol: 'SOLUSDT',
      side: 'BUY',
      type: 'STOP_MARKET',
      quantity: '1',
      triggerPrice: await solPrice(2),
      clientOrderId: 'algo-after-5xx',
    });
    expect(order).toMatchObject({ kind: 'conditional', clientOrderId: 'algo-after-5xx', status: 'NEW' });
    expect((await adapterFor().openOrders(keys)).filter((o) => o.kind === 'conditional')).toHaveLength(1);
  });

  it('a 5xx before a conditional order was accepted says it was not placed', async () => {
    const keys = await account();
    await failOnce('POST', '/fapi/v1/algoOrder', 'before', 502);
    const err = await adapterFor()
      .placeOrder(keys, {
        symbol: 'SOLUSDT',
        side: 'BUY',
        type: 'STOP_MARKET',
        quantity: '1',
        triggerPrice: await solPrice(2),
        clientOrderId: 'algo-before-5xx',
      })
      .catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/order algo-before-5xx was not placed/);
    expect(await adapterFor().openOrders(keys)).toEqual([]);
  });
});

describe('history without a symbol', () => {
  it('fans out over the symbols the account was active in, newest first, honouring the limit', async () => {
    const keys = await account({ balances: { USDT: '100000' } });
    const adapter = adapterFor();
    await adapter.placeOrder(keys, {
      symbol: 'SOLUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '1',
      clientOrderId: 'a',
    });
    clock.set(T0 + 5_000);
    await adapter.placeOrder(keys, {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '0.002',
      clientOrderId: 'b',
    });
    clock.set(T0 + 10_000);
    await adapter.placeOrder(keys, {
      symbol: 'SOLUSDT',
      side: 'SELL',
      type: 'MARKET',
      quantity: '1',
      clientOrderId: 'c',
    });
    clock.set(T0 + 15_000);
    // Never filled: found through the account's open-order symbols, not its income
    const resting = await adapter.placeOrder(keys, { ...limitBuy, symbol: 'SOLUSDT', clientOrderId: 'd' });
    expect(resting.status).toBe('NEW');

    const all = await adapter.orderHistory(keys, undefined, 100);
    expect(all.map((o) => o.clientOrderId)).toEqual(['d', 'c', 'b', 'a']);
    expect((await adapter.orderHistory(keys, undefined, 2)).map((o) => o.clientOrderId)).toEqual(['d', 'c']);

    const trades = await adapter.trades(keys, undefined, 100);
    expect(trades.map((t) => t.symbol)).toEqual(['SOLUSDT', 'BTCUSDT', 'SOLUSDT']);
    expect(trades.map((t) => t.side)).toEqual(['SELL', 'BUY', 'BUY']);
    expect(await adapter.trades(keys, undefined, 1)).toHaveLength(1);
    expect(await adapter.trades(keys, 'BTCUSDT', 100)).toHaveLength(1);
  });

  it('is empty for an account that never traded, at the cost of two calls', async () => {
    const keys = await account();
    const adapter = adapterFor();
    await adapter.syncTime();
    expect(await adapter.orderHistory(keys, undefined, 100)).toEqual([]);
    // income (30) + account (5), plus the clock sync (1)
    expect(adapter.client.usedWeight).toBeLessThanOrEqual(36 + 1);
  });
});

/**
 * The simulator behind a pass-through that edits the body of matching answers, the way a changed or broken
 * exchange answer would look; everything else reaches the adapter byte for byte
 */
async function corrupting(
  edit: (method: string, path: string, body: string) => string,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer(async (req, res) => {
    const upstream = await fetch(`${url}${req.url ?? '/'}`, {
      method: req.method,
      headers: { 'x-mbx-apikey': String(req.headers['x-mbx-apikey'] ?? '') },
    });
    const body = await upstream.text();
    const weight = upstream.headers.get('x-mbx-used-weight-1m');
    res.writeHead(upstream.status, {
      'content-type': 'application/json',
      ...(weight ? { 'x-mbx-used-weight-1m': weight } : {}),
    });
    const path = new URL(req.url ?? '/', 'http://proxy').pathname;
    res.end(edit(req.method ?? 'GET', path, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('answers the adapter cannot read', () => {
  it('a missing field is an error naming the endpoint and the field (a 502 for the browser), never "0"', async () => {
    const keys = await account();
    await adapterFor().placeOrder(keys, { symbol: 'SOLUSDT', side: 'BUY', type: 'MARKET', quantity: '1' });
    const proxy = await corrupting((method, path, body) =>
      method === 'GET' && path === '/fapi/v3/positionRisk' ? body.replace(/"markPrice":"[^"]*",/, '') : body,
    );
    try {
      const adapter = new BinanceUsdmAdapter({ restUrl: proxy.url, timeoutMs: 2000 });
      const err = await adapter.positions(keys, 'SOLUSDT').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ExchangeResponseError);
      expect((err as Error).message).toBe(
        'GET /fapi/v3/positionRisk: [0].markPrice: missing (expected a decimal string)',
      );
      expect(exchangeHttpError(err)).toEqual(
        new HttpError(
          502,
          'EXCHANGE_BAD_ANSWER',
          'The exchange sent an answer Kestrel could not read: ' +
            'GET /fapi/v3/positionRisk: [0].markPrice: missing (expected a decimal string)',
        ),
      );
      // Unaffected answers still read
      expect((await adapter.account(keys)).positions.map((p) => p.symbol)).toEqual(['SOLUSDT']);
    } finally {
      await proxy.close();
    }
  });

  it('an accepted order whose answer cannot be read is looked up by its client id, not sent again', async () => {
    const keys = await account();
    const proxy = await corrupting((method, path, body) =>
      method === 'POST' && path === '/fapi/v1/order'
        ? body.replace('"status":"NEW"', '"status":"PENDING"')
        : body,
    );
    try {
      const adapter = new BinanceUsdmAdapter({ restUrl: proxy.url, timeoutMs: 2000 });
      const order = await adapter.placeOrder(keys, { ...limitBuy, clientOrderId: 'odd-answer' });
      expect(order).toMatchObject({ clientOrderId: 'odd-answer', status: 'NEW', quantity: '1' });
      expect(await openOrderCount(keys)).toBe(1);
    } finally {
      await proxy.close();
    }
  });

  it('when the lookup cannot be read either, the order is reported unknown with its client id', async () => {
    const keys = await account();
    const proxy = await corrupting((_method, path, body) =>
      path === '/fapi/v1/order' ? body.replace(/"side":"BUY"/, '"side":"LONG"') : body,
    );
    try {
      const adapter = new BinanceUsdmAdapter({ restUrl: proxy.url, timeoutMs: 2000 });
      const err = await adapter
        .placeOrder(keys, { ...limitBuy, clientOrderId: 'odd-twice' })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OrderStatusUnknownError);
      expect((err as Error).message).toMatch(
        /order odd-twice .*GET \/fapi\/v1\/order: side: expected BUY or SELL.*look it up by this client order id/,
      );
      expect(await openOrderCount(keys)).toBe(1);
    } finally {
      await proxy.close();
    }
  });

  it('a credentials check whose account answer cannot be read says so, as a connectivity failure', async () => {
    const keys = await account();
    const proxy = await corrupting((method, path, body) =>
      method === 'GET' && path === '/fapi/v3/account'
        ? body.replace(/"totalWalletBalance":"[^"]*",/, '')
        : body,
    );
    try {
      const probe = adapterProbe(new BinanceUsdmAdapter({ restUrl: proxy.url, timeoutMs: 2000 }));
      const err = await probe.testAccount('binance', { ...keys, region: 'global' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ExchangeUnreachableError);
      expect((err as Error).message).toBe(
        'the exchange sent an answer Kestrel could not read: ' +
          'GET /fapi/v3/account: totalWalletBalance: missing (expected a decimal string)',
      );
    } finally {
      await proxy.close();
    }
  });
});
