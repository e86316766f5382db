import {
  ErrorResponseSchema,
  FuturesAccountInfoResponseSchema,
  FuturesOrderResponseSchema,
  FuturesOrdersResponseSchema,
  FuturesPositionsResponseSchema,
  FuturesTradesResponseSchema,
  KlinesResponseSchema,
  MarketDataResponseSchema,
  MarketStatusResponseSchema,
  PnlSummaryResponseSchema,
  RiskAssessmentResponseSchema,
  SymbolInfoResponseSchema,
  TickerResponseSchema,
} from '@kestrel/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, closedLoopbackPort, openTestDatabase, signUp, useTestServer } from './helper';

/** The market and futures calls of the spec, through the real app, adapter and simulator */
describe('market and futures API against the simulator', () => {
  let token: string;

  const t = useTestServer({
    // 5 days: enough for the default 100 hourly bars
    simulator: { historyDays: 5, symbols: ['BTCUSDT', 'SOLUSDT'] },
  });
  beforeAll(async () => {
    token = (await t.connectedUser()).auth.access_token;
  });

  const get = (path: string, auth = token) => t.request({ method: 'GET', url: path, headers: bearer(auth) });
  const post = (path: string, payload: object, auth = token) =>
    t.request({ method: 'POST', url: path, headers: bearer(auth), payload });
  const detail = (res: { json(): unknown }) => ErrorResponseSchema.parse(res.json()).detail;
  /** The sentence an order is refused with (a 400) */
  const refusal = async (order: object) => {
    const res = await post('/api/futures/orders/create', order);
    expect(res.statusCode).toBe(400);
    return detail(res);
  };

  it('needs a signed-in user', async () => {
    for (const path of ['/api/v1/market/ticker/BTCUSDT', '/api/futures/account/info']) {
      expect((await t.request({ method: 'GET', url: path })).statusCode).toBe(401);
    }
  });

  it('ticker, data and status', async () => {
    const ticker = TickerResponseSchema.parse((await get('/api/v1/market/ticker/btcusdt')).json());
    expect(ticker.data.symbol).toBe('BTCUSDT');
    const data = MarketDataResponseSchema.parse(
      (await get('/api/v1/market/data?symbols=BTCUSDT,SOLUSDT')).json(),
    );
    expect(data.data.map((d) => d.symbol)).toEqual(['BTCUSDT', 'SOLUSDT']);
    const status = MarketStatusResponseSchema.parse((await get('/api/v1/market/status')).json());
    expect(status.data).toMatchObject({ reachable: true, environment: 'simulator' });
    // The simulator's clock is months behind the machine's: the offset is measured, not assumed
    expect(Math.abs(Date.now() + (status.data.clockOffsetMs ?? 0) - Date.UTC(2026, 0, 15, 12))).toBeLessThan(
      5000,
    );
  });

  it('klines default to 1h and 100 bars, and say what is wrong with a bad interval', async () => {
    const klines = KlinesResponseSchema.parse((await get('/api/v1/market/klines/SOLUSDT')).json());
    expect(klines.data.interval).toBe('1h');
    expect(klines.data.klines).toHaveLength(100);
    const first = klines.data.klines[0];
    expect((first?.closeTime ?? 0) - (first?.openTime ?? 0)).toBe(3_600_000 - 1);
    const short = KlinesResponseSchema.parse(
      (await get('/api/v1/market/klines/SOLUSDT?interval=5m&limit=3')).json(),
    );
    expect(short.data.klines).toHaveLength(3);
    const bad = await get('/api/v1/market/klines/SOLUSDT?interval=7m');
    expect(bad.statusCode).toBe(400);
    expect(detail(bad)).toMatch(/interval must be one of/);
  });

  it('an unknown symbol is the exchange’s clear 400, never a 500', async () => {
    const res = await get('/api/v1/market/ticker/NOPEUSDT');
    expect(res.statusCode).toBe(400);
    expect(detail(res)).toMatch(/Invalid symbol/i);
  });

  it('account info, leverage, orders create/active/cancel and positions', async () => {
    const info = FuturesAccountInfoResponseSchema.parse((await get('/api/futures/account/info')).json());
    expect(Number(info.data.totalWalletBalance)).toBe(1000);
    expect(info.data.positions).toEqual([]);

    // How the account trades the symbol: Binance's defaults, then the leverage set, read back from the exchange
    const config = () => get('/api/futures/symbols/config?symbol=SOLUSDT');
    expect((await config()).json().data).toMatchObject({
      symbol: 'SOLUSDT',
      marginType: 'cross',
      leverage: 20,
    });
    const lev = await post('/api/futures/leverage/set', { symbol: 'SOLUSDT', leverage: 5 });
    expect(lev.json()).toMatchObject({ data: { symbol: 'SOLUSDT', leverage: 5 } });
    const after = (await config()).json().data;
    expect(after).toMatchObject({ marginType: 'cross', leverage: 5 });
    // A lower leverage allows a larger position: the cap of the 5x bracket is above the 20x one's
    expect(Number(after.maxNotional)).toBeGreaterThan(0);
    expect((await get('/api/futures/symbols/config?symbol=NOPEUSDT')).statusCode).toBe(400);

    const created = await post('/api/futures/orders/create', {
      symbol: 'SOLUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '1',
      price: '50',
      clientOrderId: 'dash-1',
    });
    expect(created.statusCode).toBe(201);
    const order = FuturesOrderResponseSchema.parse(created.json()).data;
    expect(order).toMatchObject({ clientOrderId: 'dash-1', status: 'NEW' });
    // Order ids are strings: the simulator's exceed 2^53
    expect(BigInt(order.orderId) > 2n ** 53n).toBe(true);

    const active = FuturesOrdersResponseSchema.parse(
      (await get('/api/futures/orders/active?symbol=SOLUSDT')).json(),
    );
    expect(active.data.map((o) => o.orderId)).toEqual([order.orderId]);

    const canceled = await post(`/api/futures/orders/${order.orderId}/cancel`, { symbol: 'SOLUSDT' });
    expect(FuturesOrderResponseSchema.parse(canceled.json()).data.status).toBe('CANCELED');
    const again = await post(`/api/futures/orders/${order.orderId}/cancel`, { symbol: 'SOLUSDT' });
    expect(again.statusCode).toBe(404);

    const market = await post('/api/futures/orders/create', {
      symbol: 'SOLUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '1',
    });
    expect(FuturesOrderResponseSchema.parse(market.json()).data.status).toBe('FILLED');
    const positions = FuturesPositionsResponseSchema.parse(
      (await get('/api/futures/positions/active')).json(),
    );
    expect(positions.data).toHaveLength(1);
    expect(positions.data[0]).toMatchObject({ symbol: 'SOLUSDT', amount: '1' });
    const bySymbol = FuturesPositionsResponseSchema.parse(
      (await get('/api/futures/positions/SOLUSDT')).json(),
    );
    expect(bySymbol.data.some((p) => p.amount === '1')).toBe(true);
  });

  it('history of orders and trades (limit default 100, symbol optional) and symbol rules', async () => {
    const filled = await post('/api/futures/orders/create', {
      symbol: 'SOLUSDT',
      side: 'SELL',
      type: 'MARKET',
      quantity: '1',
      clientOrderId: 'hist-1',
    });
    const orderId = FuturesOrderResponseSchema.parse(filled.json()).data.orderId;
    const orders = FuturesOrdersResponseSchema.parse(
      (await get('/api/futures/history/orders?symbol=SOLUSDT')).json(),
    );
    expect(orders.data.map((o) => o.clientOrderId)).toContain('hist-1');
    const trades = FuturesTradesResponseSchema.parse(
      (await get('/api/futures/history/trades?symbol=SOLUSDT&limit=50')).json(),
    );
    const fill = trades.data.find((tr) => tr.orderId === orderId);
    expect(fill).toMatchObject({ side: 'SELL', quantity: '1', symbol: 'SOLUSDT' });
    // Without a symbol: every symbol the account was active in, newest first
    const allTrades = FuturesTradesResponseSchema.parse((await get('/api/futures/history/trades')).json());
    expect(allTrades.data[0]).toMatchObject({ orderId, symbol: 'SOLUSDT' });
    const times = allTrades.data.map((tr) => tr.time);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const allOrders = FuturesOrdersResponseSchema.parse(
      (await get('/api/futures/history/orders?limit=2')).json(),
    );
    expect(allOrders.data).toHaveLength(2);
    expect(allOrders.data[0]?.clientOrderId).toBe('hist-1');

    const rules = SymbolInfoResponseSchema.parse(
      (await get('/api/futures/symbols/info?symbol=btcusdt')).json(),
    );
    expect(rules.data).toMatchObject({ symbol: 'BTCUSDT', baseAsset: 'BTC', quoteAsset: 'USDT' });
    expect(Number(rules.data.tickSize)).toBeGreaterThan(0);
    expect(Number(rules.data.minNotional)).toBeGreaterThan(0);
    const unknown = await get('/api/futures/symbols/info?symbol=NOPEUSDT');
    expect(unknown.statusCode).toBe(404);
    expect(detail(unknown)).toBe('NOPEUSDT is not a futures symbol of this exchange');
  });

  it('pnl sums realized profit, fees and funding; risk reports the margin ratio of open positions', async () => {
    const opened = await post('/api/futures/orders/create', {
      symbol: 'SOLUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '2',
    });
    expect(opened.statusCode).toBe(201);
    const pnl = PnlSummaryResponseSchema.parse((await get('/api/futures/pnl')).json()).data;
    // Earlier tests traded SOLUSDT (taker fees are negative income)
    expect(Number(pnl.commission)).toBeLessThan(0);
    expect(pnl.bySymbol.map((b) => b.symbol)).toEqual(['SOLUSDT']);
    expect(Number(pnl.netRealized)).toBeCloseTo(
      Number(pnl.realizedPnl) + Number(pnl.commission) + Number(pnl.fundingFee),
      8,
    );
    expect(pnl.to - pnl.from).toBe(7 * 86_400_000);

    const risk = RiskAssessmentResponseSchema.parse((await get('/api/futures/risk/assessment')).json()).data;
    expect(risk.level).toBe('low');
    expect(risk.positions).toEqual([expect.objectContaining({ symbol: 'SOLUSDT', amount: '2' })]);
    expect(Number(risk.marginRatio)).toBeGreaterThan(0);
    expect(Number(risk.marginRatio)).toBeLessThan(0.3);
    const info = FuturesAccountInfoResponseSchema.parse((await get('/api/futures/account/info')).json()).data;
    expect(Number(info.positions[0]?.markPrice)).toBeGreaterThan(0);
  });

  it('conditional orders: created on the algo endpoint, listed with open orders, canceled by kind', async () => {
    const last = Number(
      TickerResponseSchema.parse((await get('/api/v1/market/ticker/SOLUSDT')).json()).data.lastPrice,
    );
    const below = (Math.floor(last * 50) / 100).toFixed(2);
    const created = await post('/api/futures/orders/create', {
      symbol: 'SOLUSDT',
      side: 'SELL',
      type: 'STOP_MARKET',
      triggerPrice: below,
      closePosition: true,
      clientOrderId: 'dash-stop',
    });
    expect(created.statusCode).toBe(201);
    const body = FuturesOrderResponseSchema.parse(created.json());
    expect(body.message).toBe('Conditional order placed');
    expect(body.data).toMatchObject({
      kind: 'conditional',
      type: 'STOP_MARKET',
      status: 'NEW',
      closePosition: true,
    });

    const active = FuturesOrdersResponseSchema.parse((await get('/api/futures/orders/active')).json());
    expect(active.data.filter((o) => o.kind === 'conditional').map((o) => o.clientOrderId)).toEqual([
      'dash-stop',
    ]);

    const canceled = await post(`/api/futures/orders/${body.data.orderId}/cancel`, {
      symbol: 'SOLUSDT',
      kind: 'conditional',
    });
    expect(canceled.statusCode).toBe(200);
    expect(FuturesOrderResponseSchema.parse(canceled.json()).data).toMatchObject({
      kind: 'conditional',
      status: 'CANCELED',
    });
    const again = await post(`/api/futures/orders/${body.data.orderId}/cancel`, { symbol: 'SOLUSDT' });
    expect(again.statusCode).toBe(404);

    expect(
      await refusal({ symbol: 'SOLUSDT', side: 'SELL', type: 'TRAILING_STOP_MARKET', quantity: '1' }),
    ).toMatch(/callbackRate is required for a TRAILING_STOP_MARKET order/);

    // A trailing stop: Binance's list of open conditional orders leaves out its terms; the server's record adds them
    const above = (Math.ceil(last * 105) / 100).toFixed(2);
    const trailing = await post('/api/futures/orders/create', {
      symbol: 'SOLUSDT',
      side: 'SELL',
      type: 'TRAILING_STOP_MARKET',
      quantity: '1',
      reduceOnly: true,
      callbackRate: '2.5',
      activationPrice: above,
      clientOrderId: 'dash-trail',
    });
    expect(trailing.statusCode, trailing.body).toBe(201);
    const listed = FuturesOrdersResponseSchema.parse((await get('/api/futures/orders/active')).json()).data;
    expect(listed.find((o) => o.clientOrderId === 'dash-trail')).toMatchObject({
      type: 'TRAILING_STOP_MARKET',
      callbackRate: '2.5',
      activationPrice: above,
    });
    const trailId = FuturesOrderResponseSchema.parse(trailing.json()).data.orderId;
    expect(
      (await post(`/api/futures/orders/${trailId}/cancel`, { symbol: 'SOLUSDT', kind: 'conditional' }))
        .statusCode,
    ).toBe(200);
  });

  it("exchange rejections reach the browser as the exchange's sentence with a 400", async () => {
    const limit = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT' };
    expect(await refusal({ ...limit, quantity: '0.001', price: '1000' })).toMatch(
      /^Order's notional must be no smaller than \d+/,
    );
    expect(await refusal({ ...limit, quantity: '1' })).toMatch(/price is required for a LIMIT order/);
  });

  it('a user without stored keys is told to connect Binance first', async () => {
    const other = await signUp(t);
    const res = await get('/api/futures/account/info', other.access_token);
    expect(res.statusCode).toBe(400);
    expect(detail(res)).toBe('No Binance credentials stored. Connect Binance first.');
  });

  it('lists the calls in the OpenAPI document', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, unknown>;
    };
    for (const path of [
      '/api/v1/market/ticker/{symbol}',
      '/api/v1/market/klines/{symbol}',
      '/api/v1/market/data',
      '/api/v1/market/status',
      '/api/futures/account/info',
      '/api/futures/orders/create',
      '/api/futures/orders/{id}/cancel',
      '/api/futures/leverage/set',
      '/api/futures/history/orders',
      '/api/futures/history/trades',
      '/api/futures/symbols/info',
      '/api/futures/pnl',
      '/api/futures/risk/assessment',
    ]) {
      expect(doc.paths, path).toHaveProperty([path]);
    }
    // Conditional orders are part of the documented create body
    const create = JSON.stringify(doc.paths['/api/futures/orders/create']);
    for (const word of [
      'TRAILING_STOP_MARKET',
      'triggerPrice',
      'callbackRate',
      'closePosition',
      'workingType',
    ]) {
      expect(create).toContain(word);
    }
    // with what each field means
    expect(create).toContain('the price that fires the order');
  });
});

describe('market and futures API with the exchange down', () => {
  it('answers 503 "Binance connectivity failed: exchange not reachable" and reports status unreachable', async () => {
    const tdb = await openTestDatabase('pglite');
    const t = await buildTestApp(
      tdb.db,
      {},
      { KESTREL_EXCHANGE_BASE_URL: `http://127.0.0.1:${await closedLoopbackPort()}` },
    );
    try {
      const { access_token } = await signUp(t);
      const ticker = await t.request({
        method: 'GET',
        url: '/api/v1/market/ticker/BTCUSDT',
        headers: bearer(access_token),
      });
      expect(ticker.statusCode).toBe(503);
      expect(ErrorResponseSchema.parse(ticker.json()).detail).toMatch(
        /^Binance connectivity failed: exchange not reachable/,
      );
      const status = MarketStatusResponseSchema.parse(
        (
          await t.request({ method: 'GET', url: '/api/v1/market/status', headers: bearer(access_token) })
        ).json(),
      );
      expect(status.data).toMatchObject({ reachable: false, clockOffsetMs: null });
    } finally {
      await t.app.close();
      await tdb.cleanup();
    }
  });
});
