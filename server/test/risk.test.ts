import {
  ErrorResponseSchema,
  KillSwitchResponseSchema,
  RiskEventsResponseSchema,
  RiskLimitsResponseSchema,
  RiskOverviewResponseSchema,
} from '@kestrel/contracts';
import { NotificationListResponseSchema } from '@kestrel/contracts/account';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recorderRepository } from '../src/core/recorder/recorder-repository';
import { bearer, signUp, storeKeys, useTestServer } from './helper';

const NO_LIMITS = {
  maxLeverage: null,
  dailyLossLimit: null,
  maxDrawdownPercent: null,
  maxPositionNotional: null,
};

/** Account limits, the guard on the one order path, the kill switch: the real app against the simulator */
describe('risk limits and the kill switch against the simulator', () => {
  let token: string;
  let apiKey: string;
  let userId: string;

  // The simulator's clock stands still, so its weight minute never turns: the file's ~2300 weight would all land
  // in one minute and run into the share the server keeps for trading. Ten times the budget on both sides
  const t = useTestServer({
    simulator: { symbols: ['BTCUSDT', 'SOLUSDT'], rateLimits: { weightPerMinute: 24_000 } },
    env: { KESTREL_EXCHANGE_WEIGHT_LIMIT: '24000' },
  });
  beforeAll(async () => {
    const user = await t.connectedUser();
    token = user.auth.access_token;
    apiKey = user.keys.apiKey;
    userId = user.auth.user.id;
  });

  // Each test starts flat, with no limits and held prices: notionals are exact
  beforeEach(async () => {
    await put(NO_LIMITS);
    t.sim.exchange.setPrice('BTCUSDT', { price: '50000' });
    t.sim.exchange.setPrice('SOLUSDT', { price: '100' });
    const { failed } = KillSwitchResponseSchema.parse(
      (await post('/api/v1/risk/kill-switch', {})).json(),
    ).data;
    expect(failed).toBe(0);
  });

  const get = (url: string, auth = token) => t.request({ method: 'GET', url, headers: bearer(auth) });
  const post = (url: string, payload: object) =>
    t.request({ method: 'POST', url, headers: bearer(token), payload });
  const put = (payload: object) =>
    t.request({ method: 'PUT', url: '/api/v1/risk/limits', headers: bearer(token), payload });
  const order = (body: Record<string, unknown>) =>
    post('/api/futures/orders/create', { symbol: 'SOLUSDT', type: 'MARKET', ...body });
  const events = async () => RiskEventsResponseSchema.parse((await get('/api/v1/risk/events')).json()).data;
  const sim = () => {
    const account = t.sim.exchange.accountByKey(apiKey);
    if (!account) throw new Error('the demo account is gone');
    return {
      orders: t.sim.exchange.openOrders(account),
      algos: t.sim.exchange.openAlgoOrders(account),
      positions: [...account.positions.values()]
        .filter((p) => !p.amt.isZero())
        .map((p) => [p.symbol, p.positionSide, p.amt.toString()]),
    };
  };
  const refusal = (res: { statusCode: number; json(): unknown }) => {
    expect(res.statusCode).toBe(422);
    const body = ErrorResponseSchema.parse(res.json());
    expect(body.code).toBe('RISK_LIMIT');
    return body.detail;
  };

  it('limits: none at first, stored when saved, bad values refused with a clear message', async () => {
    expect((await t.request({ method: 'GET', url: '/api/v1/risk/limits' })).statusCode).toBe(401);
    const stranger = await signUp(t);
    expect(
      RiskLimitsResponseSchema.parse((await get('/api/v1/risk/limits', stranger.access_token)).json()).data,
    ).toEqual({ ...NO_LIMITS, updatedAt: null });

    for (const [body, text] of [
      [{ ...NO_LIMITS, maxLeverage: 0 }, 'Max leverage must be between 1 and 125'],
      [{ ...NO_LIMITS, maxLeverage: 126 }, 'Max leverage must be between 1 and 125'],
      [{ ...NO_LIMITS, dailyLossLimit: -5 }, 'Daily loss limit must be greater than 0'],
      [{ ...NO_LIMITS, maxDrawdownPercent: 150 }, 'Max drawdown must be between 0.01 and 100'],
      [{ ...NO_LIMITS, maxPositionNotional: 'lots' }, 'Max position notional must be a number'],
    ] as const) {
      const res = await put(body);
      expect(res.statusCode).toBe(400);
      expect(ErrorResponseSchema.parse(res.json()).detail).toContain(text);
    }

    const saved = await put({ ...NO_LIMITS, maxLeverage: 5, dailyLossLimit: 250 });
    expect(saved.statusCode).toBe(200);
    const stored = RiskLimitsResponseSchema.parse((await get('/api/v1/risk/limits')).json()).data;
    expect(stored).toMatchObject({ maxLeverage: 5, dailyLossLimit: 250, maxDrawdownPercent: null });
    const [change] = await events();
    expect(change).toMatchObject({
      kind: 'limits',
      message: 'Limits changed: max leverage 5×; daily loss limit 250 USDT',
    });
  });

  it('max leverage: a larger order is refused with the figures, recorded, and never reaches the exchange', async () => {
    await put({ ...NO_LIMITS, maxLeverage: 2 });
    // 1000 USDT margin balance: 25 SOL at 100 is 2500 notional, 2.5×
    const detail = refusal(await order({ side: 'BUY', quantity: '25' }));
    expect(detail).toMatch(
      /^Order refused: it would take leverage to 2\.5×, above your max leverage limit of 2×$/,
    );
    expect(sim().positions).toEqual([]);
    const [event] = await events();
    expect(event).toMatchObject({ kind: 'refusal', message: detail });
    expect(event?.detail).toMatchObject({ limit: 'maxLeverage', order: 'BUY 25 SOLUSDT MARKET' });

    // A limit order counts at its own price
    refusal(await order({ side: 'SELL', type: 'LIMIT', quantity: '10', price: '250', timeInForce: 'GTC' }));
    // Within the limit: placed
    expect((await order({ side: 'BUY', quantity: '15' })).statusCode).toBe(201);
    expect(sim().positions).toEqual([['SOLUSDT', 'BOTH', '15']]);
    // Leverage of a symbol above the limit is refused too
    refusal(await post('/api/futures/leverage/set', { symbol: 'SOLUSDT', leverage: 10 }));
    expect((await post('/api/futures/leverage/set', { symbol: 'SOLUSDT', leverage: 2 })).statusCode).toBe(
      200,
    );
  });

  it('orders that reduce exposure always pass, even with every limit already broken', async () => {
    expect((await order({ side: 'BUY', quantity: '15' })).statusCode).toBe(201);
    expect((await order({ symbol: 'BTCUSDT', side: 'SELL', quantity: '0.01' })).statusCode).toBe(201);
    await put({ maxLeverage: 1, dailyLossLimit: 0.0001, maxDrawdownPercent: 0.01, maxPositionNotional: 1 });
    refusal(await order({ side: 'BUY', quantity: '1' }));
    // Reduce-only, a plain order against the position no larger than it, and a close-position stop all pass
    expect((await order({ side: 'SELL', quantity: '5', reduceOnly: true })).statusCode).toBe(201);
    expect((await order({ side: 'SELL', quantity: '5' })).statusCode).toBe(201);
    expect(
      (await order({ side: 'SELL', type: 'STOP_MARKET', triggerPrice: '80', closePosition: true }))
        .statusCode,
    ).toBe(201);
    // Selling more than the position flips it: new exposure, refused
    refusal(await order({ side: 'SELL', quantity: '6' }));
    expect(sim().positions).toEqual([
      ['SOLUSDT', 'BOTH', '5'],
      ['BTCUSDT', 'BOTH', '-0.01'],
    ]);
  });

  it('max position notional per symbol', async () => {
    await put({ ...NO_LIMITS, maxPositionNotional: 1000 });
    expect((await order({ side: 'BUY', quantity: '8' })).statusCode).toBe(201);
    expect(refusal(await order({ side: 'BUY', quantity: '3' }))).toBe(
      'Order refused: it would take the SOLUSDT position to 1,100 USDT notional, above your max position notional limit of 1,000 USDT',
    );
    // Another symbol has its own room
    expect((await order({ symbol: 'BTCUSDT', side: 'BUY', quantity: '0.01' })).statusCode).toBe(201);
  });

  it('daily loss: a breached limit halts new exposure for the UTC day; reducing still passes', async () => {
    expect((await order({ side: 'BUY', quantity: '10' })).statusCode).toBe(201);
    await put({ ...NO_LIMITS, dailyLossLimit: 50 });
    expect((await order({ side: 'BUY', quantity: '1' })).statusCode).toBe(201);
    // 11 SOL lose 9 each: 99 USDT unrealized, plus today's fees
    t.sim.exchange.setPrice('SOLUSDT', { price: '91' });
    const detail = refusal(await order({ symbol: 'BTCUSDT', side: 'BUY', quantity: '0.001' }));
    const [, figure] =
      /^Order refused: today’s loss is ([\d.,]+) USDT, at or above your daily loss limit of 50 USDT\. Trading resumes at 00:00 UTC, or raise the limit$/.exec(
        detail,
      ) ?? [];
    // The loss is the simulator's: today's realized PnL, fees and funding (all today: one simulated day) and the
    // unrealized PnL of the 11 SOL that lost 9 each
    const account = t.sim.exchange.accountByKey(apiKey);
    if (!account) throw new Error('the demo account is gone');
    const realized = account.income
      .filter((i) => ['REALIZED_PNL', 'COMMISSION', 'FUNDING_FEE'].includes(i.incomeType))
      .reduce((sum, i) => sum + i.income.toNumber(), 0);
    const unrealized = t.sim.exchange.figures(account).unrealizedPnl.toNumber();
    expect(unrealized).toBeLessThan(-98);
    expect(Number(figure?.replace(',', ''))).toBeCloseTo(-(realized + unrealized), 2);
    const overview = RiskOverviewResponseSchema.parse((await get('/api/v1/risk/overview')).json()).data;
    expect(overview.halted).toMatch(/^Daily loss limit reached/);
    expect(overview.usage.find((u) => u.name === 'dailyLossLimit')).toMatchObject({ breached: true });
    expect((await order({ side: 'SELL', quantity: '11', reduceOnly: true })).statusCode).toBe(201);
    expect(sim().positions).toEqual([]);
  });

  it('max drawdown from the recorded equity peak', async () => {
    // A recorded peak of twice today's balance: the account is about 50 % down
    await recorderRepository.insertSnapshot(t.app.db, {
      user_id: userId,
      environment: 'testnet',
      minute: t.clock.now().getTime() - 3_600_000,
      taken_at: t.clock.now().getTime() - 3_600_000,
      wallet_balance: '2000',
      unrealized_pnl: '0',
      margin_balance: '2000',
      maintenance_margin: '0',
    });
    await put({ ...NO_LIMITS, maxDrawdownPercent: 60 });
    expect((await order({ side: 'BUY', quantity: '1' })).statusCode).toBe(201);
    await put({ ...NO_LIMITS, maxDrawdownPercent: 40 });
    expect(refusal(await order({ side: 'BUY', quantity: '1' }))).toMatch(
      /^Order refused: the account is 5\d\.\d+ % below its equity peak of 2,000 USDT, at or above your max drawdown of 40 %\. Raise the limit to trade again$/,
    );
    expect((await order({ side: 'SELL', quantity: '1', reduceOnly: true })).statusCode).toBe(201);
  });

  it('the overview: leverage, exposure, distance to liquidation in % and ATRs, limit usage', async () => {
    expect((await order({ side: 'BUY', quantity: '10' })).statusCode).toBe(201);
    expect((await order({ symbol: 'BTCUSDT', side: 'SELL', quantity: '0.01' })).statusCode).toBe(201);
    await put({ ...NO_LIMITS, maxLeverage: 4 });
    const o = RiskOverviewResponseSchema.parse((await get('/api/v1/risk/overview')).json()).data;
    const mb = Number(o.marginBalance);
    const notional = (symbol: string) => Number(o.positions.find((p) => p.symbol === symbol)?.notional);
    const [sol10, btc] = [notional('SOLUSDT'), notional('BTCUSDT')];
    // At the mark price: close to the held last price
    expect(sol10).toBeCloseTo(1000, -1);
    expect(btc).toBeCloseTo(-500, -1);
    expect(o.grossLeverage).toBeCloseTo((sol10 - btc) / mb, 9);
    expect(o.netLeverage).toBeCloseTo((sol10 + btc) / mb, 9);
    expect(o.exposure).toEqual([
      { symbol: 'SOLUSDT', long: sol10, short: 0, net: sol10 },
      { symbol: 'BTCUSDT', long: 0, short: -btc, net: btc },
    ]);
    const sol = o.positions.find((p) => p.symbol === 'SOLUSDT');
    expect(sol?.liquidationDistancePercent).toBeGreaterThan(0);
    expect(sol?.atr).toBeGreaterThan(0);
    expect(sol?.liquidationDistanceAtr).toBeCloseTo(
      Math.abs(Number(sol?.markPrice) - Number(sol?.liquidationPrice)) / (sol?.atr ?? 1),
      6,
    );
    expect(o.usage.find((u) => u.name === 'maxLeverage')).toMatchObject({
      limit: 4,
      breached: false,
      usedPercent: expect.closeTo(((sol10 - btc) / mb / 4) * 100, 9),
    });
    // One day of simulator history: too few daily closes for a VaR figure, and the answer says so
    expect(o.valueAtRisk).toMatchObject({ value: null, confidence: 0.95, horizonDays: 1 });
    expect(o.halted).toBeNull();
  });

  it('the kill switch cancels every order (conditional too) and flattens every position, and records it', async () => {
    expect((await order({ side: 'BUY', quantity: '3' })).statusCode).toBe(201);
    expect((await order({ symbol: 'BTCUSDT', side: 'SELL', quantity: '0.01' })).statusCode).toBe(201);
    expect(
      (await order({ side: 'BUY', type: 'LIMIT', quantity: '1', price: '80', timeInForce: 'GTC' }))
        .statusCode,
    ).toBe(201);
    expect(
      (
        await order({
          symbol: 'BTCUSDT',
          side: 'BUY',
          type: 'LIMIT',
          quantity: '0.01',
          price: '40000',
          timeInForce: 'GTC',
        })
      ).statusCode,
    ).toBe(201);
    expect(
      (
        await order({
          side: 'SELL',
          type: 'STOP_MARKET',
          triggerPrice: '70',
          quantity: '3',
          reduceOnly: true,
        })
      ).statusCode,
    ).toBe(201);
    expect(sim().orders).toHaveLength(2);
    expect(sim().algos).toHaveLength(1);
    // What the page's confirmation counts
    const before = RiskOverviewResponseSchema.parse((await get('/api/v1/risk/overview')).json()).data;
    expect([before.openOrders, before.positions.length]).toEqual([3, 2]);

    const res = await post('/api/v1/risk/kill-switch', {});
    expect(res.statusCode).toBe(200);
    const result = KillSwitchResponseSchema.parse(res.json()).data;
    expect(result.failed).toBe(0);
    expect(result.orders).toHaveLength(3);
    expect(result.orders.every((o) => o.ok)).toBe(true);
    expect(result.positions.map((p) => [p.symbol, Number(p.amount), p.ok]).sort()).toEqual([
      ['BTCUSDT', -0.01, true],
      ['SOLUSDT', 3, true],
    ]);
    // The simulator's own record: nothing open, nothing held
    expect(sim()).toEqual({ orders: [], algos: [], positions: [] });
    const [event] = await events();
    expect(event).toMatchObject({
      kind: 'kill_switch',
      message: 'Kill switch: canceled 3 of 3 orders, closed 2 of 2 positions',
    });
    // The user is told in the in-app list (and any webhook that chose kill_switch)
    const [notice] = NotificationListResponseSchema.parse((await get('/api/v1/notifications')).json()).data
      .items;
    expect(notice).toMatchObject({
      event: 'kill_switch',
      read: false,
      message: 'Kill switch: canceled 3 of 3 orders, closed 2 of 2 positions',
    });
  });

  it('the kill switch works under a limit that is already broken (its closes are reduce-only)', async () => {
    expect((await order({ side: 'BUY', quantity: '5' })).statusCode).toBe(201);
    await put({ maxLeverage: 1, dailyLossLimit: 0.0001, maxDrawdownPercent: 0.01, maxPositionNotional: 1 });
    const result = KillSwitchResponseSchema.parse((await post('/api/v1/risk/kill-switch', {})).json()).data;
    expect(result.failed).toBe(0);
    expect(sim().positions).toEqual([]);
  });

  it('one failing cancel is reported; the other orders and the positions are still handled', async () => {
    expect((await order({ side: 'BUY', quantity: '2' })).statusCode).toBe(201);
    for (const price of ['80', '81', '82']) {
      expect(
        (await order({ side: 'BUY', type: 'LIMIT', quantity: '1', price, timeInForce: 'GTC' })).statusCode,
      ).toBe(201);
    }
    // The exchange refuses the first cancel it gets (overloaded, nothing executed)
    t.sim.faults.add({
      kind: 'error',
      method: 'DELETE',
      path: '/fapi/v1/order',
      status: 503,
      code: -1008,
      remaining: 1,
    });
    const result = KillSwitchResponseSchema.parse((await post('/api/v1/risk/kill-switch', {})).json()).data;
    expect(result.failed).toBe(1);
    const failed = result.orders.filter((o) => !o.ok);
    expect(failed).toHaveLength(1);
    expect(failed[0]?.error).toBeTruthy();
    expect(result.orders.filter((o) => o.ok)).toHaveLength(2);
    expect(result.positions).toMatchObject([{ symbol: 'SOLUSDT', ok: true }]);
    expect(sim().orders.map((o) => o.orderId.toString())).toEqual([failed[0]?.orderId]);
    expect(sim().positions).toEqual([]);
    const [event] = await events();
    expect(event?.message).toBe(
      'Kill switch: canceled 2 of 3 orders, closed 1 of 1 positions; 1 failed (see the details)',
    );
  });

  it('hedge mode: closes of either leg pass a broken limit, and the kill switch flattens both legs', async () => {
    const auth = await signUp(t);
    const keys = t.demoKeys({ dualSidePosition: true });
    const hedged = bearer(auth.access_token);
    await storeKeys(t, auth.access_token, keys);
    const send = (method: 'POST' | 'PUT', url: string, payload: object) =>
      t.request({ method, url, headers: hedged, payload });
    const hedgeOrder = (body: Record<string, unknown>) =>
      send('POST', '/api/futures/orders/create', { symbol: 'SOLUSDT', type: 'MARKET', ...body });
    expect((await hedgeOrder({ side: 'BUY', positionSide: 'LONG', quantity: '6' })).statusCode).toBe(201);
    expect((await hedgeOrder({ side: 'SELL', positionSide: 'SHORT', quantity: '3' })).statusCode).toBe(201);
    // 900 USDT open on 1,000: 0.9×
    await send('PUT', '/api/v1/risk/limits', { ...NO_LIMITS, maxLeverage: 1 });
    // Adding to either leg (to 1.1×) is refused; taking from either leg passes
    refusal(await hedgeOrder({ side: 'BUY', positionSide: 'LONG', quantity: '2' }));
    refusal(await hedgeOrder({ side: 'SELL', positionSide: 'SHORT', quantity: '2' }));
    expect((await hedgeOrder({ side: 'SELL', positionSide: 'LONG', quantity: '1' })).statusCode).toBe(201);

    const res = await send('POST', '/api/v1/risk/kill-switch', {});
    const result = KillSwitchResponseSchema.parse(res.json()).data;
    expect(result.failed).toBe(0);
    expect(result.positions.map((p) => [p.positionSide, Number(p.amount), p.ok]).sort()).toEqual([
      ['LONG', 5, true],
      ['SHORT', -3, true],
    ]);
    const account = t.sim.exchange.accountByKey(keys.apiKey);
    expect([...(account?.positions.values() ?? [])].filter((p) => !p.amt.isZero())).toEqual([]);
  });

  it('the kill switch without keys is a clear 400, and nothing is recorded', async () => {
    const stranger = await signUp(t);
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/risk/kill-switch',
      headers: bearer(stranger.access_token),
      payload: {},
    });
    expect(res.statusCode).toBe(400);
    const list = RiskEventsResponseSchema.parse(
      (await get('/api/v1/risk/events', stranger.access_token)).json(),
    );
    expect(list.data).toEqual([]);
  });
});
