import {
  ErrorResponseSchema,
  FuturesOrderResponseSchema,
  OrderEventsResponseSchema,
  OrderIntentsResponseSchema,
  ReconcileResponseSchema,
} from '@kestrel/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TradingAccount } from '../src/core/environment/trading-account';
import { BinanceUsdmAdapter } from '../src/core/exchange/binance-adapter';
import type { ExchangeKeys, NewOrder } from '../src/core/exchange/exchange-adapter';
import { orderIntentRepository } from '../src/trading/orders/order-intent-repository';
import { bearer, startTestServer, type TestServer } from './helper';

/** The user's testnet account (every user here stays on testnet, the default environment) */
const testnet = (userId: string): TradingAccount => ({ userId, environment: 'testnet' });
const ANSWER_WINDOW_MS = 20_000;
/** Lookups after the first wait a minute of the test clock: the test moves time and sweeps itself */
const TIMINGS = { answerWindowMs: ANSWER_WINDOW_MS, backoffMs: [60_000], sweepIntervalMs: 3_600_000 };

/** The order manager on the real app against the simulator: faults injected on the simulator's wire */
describe('order manager: recorded before sending, sent once, unknown outcomes resolved by lookups', () => {
  let t: TestServer;
  let token: string;
  let userId: string;
  let keys: ExchangeKeys;

  /**
   * The simulator on the wall clock (plus a shift the dead-man test moves): with its usual frozen clock, our client's
   * timestamps run ahead of it after a second and get -1021, which a fault injected after execution would hide
   */
  const simClock = { shift: 0, now: () => Date.now() + simClock.shift };

  beforeAll(async () => {
    t = await startTestServer({
      simulator: { symbols: ['BTCUSDT', 'SOLUSDT'], clock: simClock },
      // A short client timeout, so a swallowed answer costs 1.5 s, not 10
      deps: (simUrl) => ({
        exchangeAdapter: new BinanceUsdmAdapter({ restUrl: simUrl, timeoutMs: 1_500 }),
        orderTimings: TIMINGS,
      }),
    });
    const user = await t.connectedUser();
    token = user.auth.access_token;
    userId = user.auth.user.id;
    keys = user.keys;
  });
  afterAll(() => t?.close());

  beforeEach(async () => {
    t.sim.faults.clear();
    t.sim.exchange.setPrice('BTCUSDT', { price: '50000' });
    const account = t.sim.exchange.accountByKey(keys.apiKey);
    if (account) for (const s of ['BTCUSDT', 'SOLUSDT']) t.sim.exchange.cancelAll(account, s);
  });

  let n = 0;
  /** A resting LIMIT buy far below the market (never fills), under a fresh client order id */
  const resting = (clientOrderId = `t-${++n}-${Date.now()}`) => ({
    symbol: 'BTCUSDT',
    side: 'BUY',
    type: 'LIMIT',
    timeInForce: 'GTC',
    quantity: '0.010',
    price: String(40000 + n),
    clientOrderId,
  });
  const create = (body: object, headers: Record<string, string> = {}) =>
    t.request({
      method: 'POST',
      url: '/api/futures/orders/create',
      headers: { ...bearer(token), ...headers },
      payload: body,
    });
  const get = (url: string) => t.request({ method: 'GET', url, headers: bearer(token) });
  const intents = async (filter: 'unresolved' | 'all' = 'all') =>
    OrderIntentsResponseSchema.parse((await get(`/api/v1/orders/intents?filter=${filter}`)).json()).data;
  const intent = async (clientOrderId: string) =>
    (await intents()).find((i) => i.clientOrderId === clientOrderId);
  /** The simulator's own record: every order of the account with this client id */
  const onExchange = (clientOrderId: string) =>
    [...(t.sim.exchange.accountByKey(keys.apiKey)?.orders.values() ?? [])].filter(
      (o) => o.clientOrderId === clientOrderId,
    );
  const sweepAfter = async (ms: number) => {
    t.clock.advance(ms);
    await t.app.orderManager.sweep();
  };

  it('the same clientOrderId twice places one order and answers the first outcome; a different order under it is a 409', async () => {
    const body = resting();
    const first = await create(body);
    expect(first.statusCode).toBe(201);
    const second = await create(body);
    expect(second.statusCode).toBe(201);
    const a = FuturesOrderResponseSchema.parse(first.json()).data;
    const b = FuturesOrderResponseSchema.parse(second.json()).data;
    expect(b.orderId).toBe(a.orderId);
    expect(onExchange(body.clientOrderId)).toHaveLength(1);
    expect(await intent(body.clientOrderId)).toMatchObject({ state: 'placed', source: 'manual' });

    const reused = await create({ ...body, price: '41000' });
    expect(reused.statusCode).toBe(409);
    expect(ErrorResponseSchema.parse(reused.json())).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(onExchange(body.clientOrderId)).toHaveLength(1);
  });

  it('an Idempotency-Key header makes a retried submit without clientOrderId the same intent', async () => {
    const { clientOrderId: _none, ...body } = resting();
    const key = `submit-${Date.now()}`;
    const a = FuturesOrderResponseSchema.parse((await create(body, { 'idempotency-key': key })).json()).data;
    const b = FuturesOrderResponseSchema.parse((await create(body, { 'idempotency-key': key })).json()).data;
    expect(b.orderId).toBe(a.orderId);
    expect(a.clientOrderId).toMatch(/^km-[A-Za-z0-9_-]{32}$/);
    expect(onExchange(a.clientOrderId)).toHaveLength(1);
  });

  it('a 5xx after the exchange executed it, with the lookup failing too: unknown, shown as such, resolved to placed by a lookup, never sent again', async () => {
    const body = resting();
    // The order is placed, then its answer is replaced by a 503; the adapter's own lookup gets a 503 too
    t.sim.faults.add({ kind: 'error', method: 'POST', path: '/fapi/v1/order', phase: 'after', remaining: 1 });
    t.sim.faults.add({ kind: 'error', method: 'GET', path: '/fapi/v1/order', phase: 'before', remaining: 1 });
    const res = await create(body);
    expect(res.statusCode).toBe(503);
    const error = ErrorResponseSchema.parse(res.json());
    expect(error.code).toBe('ORDER_STATUS_UNKNOWN');
    expect(error.detail).toContain('status unknown');
    expect((await intents('unresolved')).map((i) => [i.clientOrderId, i.state])).toEqual([
      [body.clientOrderId, 'unknown'],
    ]);

    // One order on the exchange: the lost answer was never followed by a second send
    expect(onExchange(body.clientOrderId)).toHaveLength(1);

    await sweepAfter(60_000);
    expect(await intent(body.clientOrderId)).toMatchObject({ state: 'placed', order: { status: 'NEW' } });
    expect(await intents('unresolved')).toEqual([]);
    expect(onExchange(body.clientOrderId)).toHaveLength(1);
    // Now the same submit answers the placed order
    expect((await create(body)).statusCode).toBe(201);
    expect(onExchange(body.clientOrderId)).toHaveLength(1);
    const events = OrderEventsResponseSchema.parse((await get('/api/v1/orders/events')).json()).data;
    expect(events[0]).toMatchObject({ kind: 'resolved' });
    expect(events[0]?.message).toContain('was placed');
  });

  it('a request lost before it reached the exchange: unknown until the answer window passes, then not placed', async () => {
    const body = resting();
    // The connection drops before the exchange sees it (the client cannot tell); the lookup answers "no such order"
    t.sim.faults.add({ kind: 'drop', method: 'POST', path: '/fapi/v1/order', phase: 'before', remaining: 1 });
    const res = await create(body);
    expect(res.statusCode).toBe(503);
    expect(ErrorResponseSchema.parse(res.json()).code).toBe('ORDER_STATUS_UNKNOWN');
    expect(await intent(body.clientOrderId)).toMatchObject({ state: 'unknown' });

    // Inside the window "not found" proves nothing: still unknown
    await t.app.orderManager.resolve((await intent(body.clientOrderId))?.id ?? '');
    expect(await intent(body.clientOrderId)).toMatchObject({ state: 'unknown' });

    await sweepAfter(ANSWER_WINDOW_MS + 60_000);
    const resolved = await intent(body.clientOrderId);
    expect(resolved).toMatchObject({ state: 'not_placed' });
    expect(resolved?.reason).toContain('was not placed');
    expect(onExchange(body.clientOrderId)).toHaveLength(0);
    // The same submit again answers "not placed" and sends nothing
    const again = await create(body);
    expect(again.statusCode).toBe(503);
    expect(ErrorResponseSchema.parse(again.json()).code).toBe('ORDER_NOT_PLACED');
    expect(onExchange(body.clientOrderId)).toHaveLength(0);
  });

  it('a timeout after the exchange executed it, lookup failing: unknown, then placed by the lookup; one order', async () => {
    const body = resting();
    t.sim.faults.add({
      kind: 'timeout',
      method: 'POST',
      path: '/fapi/v1/order',
      phase: 'after',
      remaining: 1,
    });
    t.sim.faults.add({ kind: 'error', method: 'GET', path: '/fapi/v1/order', phase: 'before', remaining: 1 });
    const res = await create(body);
    expect(ErrorResponseSchema.parse(res.json()).code).toBe('ORDER_STATUS_UNKNOWN');
    expect(await intent(body.clientOrderId)).toMatchObject({ state: 'unknown' });
    await sweepAfter(60_000);
    expect(await intent(body.clientOrderId)).toMatchObject({ state: 'placed' });
    expect(onExchange(body.clientOrderId)).toHaveLength(1);
  });

  it('an order the exchange refuses keeps its reason in words and changes nothing else', async () => {
    const body = { ...resting(), quantity: '0.001', price: '40000' };
    const res = await create(body);
    expect(res.statusCode).toBe(400);
    const error = ErrorResponseSchema.parse(res.json());
    expect(error.code).toBe('EXCHANGE_REJECTED');
    expect(error.detail).toMatch(/notional/i);
    expect(await intent(body.clientOrderId)).toMatchObject({ state: 'rejected', reason: error.detail });
    expect(onExchange(body.clientOrderId)).toHaveLength(0);
  });

  it('the risk guard runs inside the manager: a refused order is recorded rejected and never sent', async () => {
    const put = (maxLeverage: number | null) =>
      t.request({
        method: 'PUT',
        url: '/api/v1/risk/limits',
        headers: bearer(token),
        payload: { maxLeverage, dailyLossLimit: null, maxDrawdownPercent: null, maxPositionNotional: null },
      });
    await put(1);
    const body = {
      ...resting(),
      type: 'MARKET',
      quantity: '0.100',
      price: undefined,
      timeInForce: undefined,
    };
    const res = await create(body);
    expect(res.statusCode).toBe(422);
    expect(await intent(body.clientOrderId)).toMatchObject({ state: 'rejected' });
    expect(onExchange(body.clientOrderId)).toHaveLength(0);
    // The pre-trade pipeline's verdict is kept on the intent: which check refused, with its words
    const stored = await orderIntentRepository.byClientId(t.app.db, userId, body.clientOrderId);
    expect(stored?.preTrade).toMatchObject({
      origin: 'manual',
      verdicts: [{ check: 'account_limits', ok: false, code: 'RISK_LIMIT', data: { limit: 'maxLeverage' } }],
    });
    expect(ErrorResponseSchema.parse(res.json()).code).toBe('RISK_LIMIT');
    await put(null);
  });

  it('reconcile reports an open order and a position no intent owns, once, and leaves them alone', async () => {
    // Placed behind Kestrel's back, straight on the exchange with the same keys
    const behindKestrel = (order: NewOrder) =>
      t.app.exchangeAdapter.placeOrder({ ...keys, environment: 'testnet' }, order);
    const foreign = await behindKestrel({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTC',
      quantity: '0.010',
      price: '39000',
      clientOrderId: 'by-hand-1',
    });
    t.sim.exchange.setPrice('SOLUSDT', { price: '100' });
    await behindKestrel({ symbol: 'SOLUSDT', side: 'BUY', type: 'MARKET', quantity: '1' });
    const mine = resting();
    expect((await create(mine)).statusCode).toBe(201);

    const reconcile = async () =>
      ReconcileResponseSchema.parse(
        (
          await t.request({
            method: 'POST',
            url: '/api/v1/orders/reconcile',
            headers: bearer(token),
            payload: {},
          })
        ).json(),
      ).data;
    const report = await reconcile();
    expect(report.foreignOrders).toEqual([
      { symbol: 'BTCUSDT', orderId: foreign.orderId, clientOrderId: 'by-hand-1' },
    ]);
    expect(report.foreignPositions).toEqual([{ symbol: 'SOLUSDT', positionSide: 'BOTH', amount: '1' }]);
    await reconcile();
    const events = OrderEventsResponseSchema.parse((await get('/api/v1/orders/events')).json()).data;
    expect(events.filter((e) => e.kind === 'foreign_order')).toHaveLength(1);
    expect(events.filter((e) => e.kind === 'foreign_position')).toHaveLength(1);
    expect(events.find((e) => e.kind === 'foreign_order')?.message).toContain('was not placed by Kestrel');
    // Untouched
    expect(onExchange('by-hand-1')[0]?.status).toBe('NEW');
    await behindKestrel({ symbol: 'SOLUSDT', side: 'SELL', type: 'MARKET', quantity: '1', reduceOnly: true });
  });

  it('reconcile brings a placed intent to the exchange state after it was cancelled elsewhere', async () => {
    const body = resting();
    expect((await create(body)).statusCode).toBe(201);
    const account = t.sim.exchange.accountByKey(keys.apiKey);
    if (!account) throw new Error('no account');
    t.sim.exchange.cancelAll(account, 'BTCUSDT');
    const report = await t.app.orderManager.reconcile(testnet(userId), 'BTCUSDT');
    expect(report.synced).toBeGreaterThanOrEqual(1);
    expect(await intent(body.clientOrderId)).toMatchObject({
      state: 'placed',
      order: { status: 'CANCELED' },
    });
  });

  it('bots: the same intent key never sends twice; cancelAllFor cancels the bot’s working orders', async () => {
    const botId = '00000000-0000-4000-8000-000000000001';
    await t.database.db.query(
      `INSERT INTO bots (id, user_id, kind, name, strategy, params, symbol, interval, leverage, budget, mode,
         risk_limits, state, created_at, updated_at)
       VALUES ($1, $2, 'bot', 'test bot', 'sma', '{}', 'BTCUSDT', '1m', 1, 100, 'live', '{}', 'running', now(), now())`,
      [botId, userId],
    );
    const order = {
      symbol: 'BTCUSDT',
      side: 'BUY' as const,
      type: 'LIMIT' as const,
      timeInForce: 'GTC' as const,
      quantity: '0.010',
      price: '38000',
    };
    const place = () =>
      t.app.orderManager.place({
        account: testnet(userId),
        order,
        source: 'bot',
        botId,
        intentKey: 'entry:1',
      });
    const [a, b] = await Promise.all([place(), place()]);
    const first = await place();
    expect(first.state).toBe('placed');
    expect(new Set([a.clientOrderId, b.clientOrderId, first.clientOrderId]).size).toBe(1);
    expect(first.clientOrderId).toMatch(/^kb-/);
    expect(onExchange(first.clientOrderId)).toHaveLength(1);

    const result = await t.app.orderManager.cancelAllFor(botId);
    expect(result).toEqual({ canceled: [first.clientOrderId], filled: [], failed: [] });
    expect(onExchange(first.clientOrderId)[0]?.status).toBe('CANCELED');
  });

  it('dead-man switch: armed on the exchange, disarmed with 0; unrefreshed, the exchange cancels the symbol’s orders', async () => {
    const body = resting();
    expect((await create(body)).statusCode).toBe(201);
    const account = t.sim.exchange.accountByKey(keys.apiKey);
    if (!account) throw new Error('no account');

    await t.app.orderManager.armDeadman(testnet(userId), 'BTCUSDT', 30_000);
    expect(t.sim.exchange.countdownDeadline(account, 'BTCUSDT')).toBeGreaterThan(simClock.now() + 29_000);
    await t.app.orderManager.disarmDeadman(testnet(userId), 'BTCUSDT');
    expect(t.sim.exchange.countdownDeadline(account, 'BTCUSDT')).toBeUndefined();

    await t.app.orderManager.armDeadman(testnet(userId), 'BTCUSDT', 30_000);
    // The server falls silent (its heartbeats stop); the exchange's clock runs past the countdown
    await t.app.orderManager.stop();
    simClock.shift += 31_000;
    t.sim.tick();
    expect(onExchange(body.clientOrderId)[0]?.status).toBe('CANCELED');
  });
});
