import { afterEach, describe, expect, it } from 'vitest';
import {
  arr,
  Client,
  flatReplay,
  type Harness,
  limitOrder,
  marketOrder,
  minute,
  obj,
  startSim,
} from './harness';
import { fixture, shapeDiff } from './shape';

let h: Harness;
afterEach(() => h.close());

/** BTCUSDT at 60000 until minute 5, 59000 until minute 10, then 61000; mark = last (no premium) */
async function scenario(balance = '10000', extra: Parameters<typeof startSim>[0] = {}) {
  h = await startSim({
    feeds: [
      flatReplay('BTCUSDT', [
        { fromMinute: -1000, price: 60000 },
        { fromMinute: 5, price: 59000 },
        { fromMinute: 10, price: 61000 },
      ]),
    ],
    constantPremium: 0,
    ...extra,
  });
  const account = h.sim.exchange.createAccount({ balances: { USDT: balance } });
  return new Client(h.url, account, h.clock);
}

const limitBuy = limitOrder('BTCUSDT', 'BUY', '0.010', '59500.0');

describe('order placement', () => {
  it('rests a LIMIT order below the market and fills it as maker when the price comes down', async () => {
    const c = await scenario();
    const placed = await c.signed('POST', '/fapi/v1/order', { ...limitBuy, newClientOrderId: 'bot-1_a' });
    expect(placed.status).toBe(200);
    expect(shapeDiff(fixture('http_post_order.json'), placed.json, true)).toEqual([]);
    expect(obj(placed.json)).toMatchObject({
      status: 'NEW',
      clientOrderId: 'bot-1_a',
      price: '59500.00',
      origQty: '0.010',
    });

    const account = obj((await c.signed('GET', '/fapi/v3/account')).json);
    // 0.010 × 59500 / 20x
    expect(account.totalOpenOrderInitialMargin).toBe('29.75000000');
    expect(account.availableBalance).toBe('9970.25000000');

    h.until(minute(5) + 2000);
    const got = await c.signed('GET', '/fapi/v1/order', { symbol: 'BTCUSDT', origClientOrderId: 'bot-1_a' });
    // Not exact: the documented example predates priceMatch/selfTradePreventionMode/goodTillDate
    expect(shapeDiff(fixture('http_get_order.json'), got.json)).toEqual([]);
    expect(obj(got.json)).toMatchObject({ status: 'FILLED', executedQty: '0.010', avgPrice: '59500.00000' });

    const trades = arr((await c.signed('GET', '/fapi/v1/userTrades', { symbol: 'BTCUSDT' })).json);
    expect(shapeDiff(fixture('http_get_user_trades.json'), trades, true)).toEqual([]);
    // Maker fee 0.02% of 595 USDT
    expect(obj(trades[0])).toMatchObject({
      maker: true,
      buyer: true,
      price: '59500.00',
      commission: '0.11900000',
    });

    const [pos] = arr((await c.signed('GET', '/fapi/v3/positionRisk', { symbol: 'BTCUSDT' })).json).map(obj);
    expect(pos).toMatchObject({ positionAmt: '0.010', entryPrice: '59500', markPrice: '59000.00000000' });
    // uPnL = 0.010 × (59000 − 59500)
    expect(pos?.unRealizedProfit).toBe('-5.00000000');
  });

  it('fills a MARKET order at once as taker at the ask and reports it with RESULT', async () => {
    const c = await scenario();
    const res = await c.signed('POST', '/fapi/v1/order', {
      ...marketOrder('BTCUSDT', 'BUY', '0.010'),
      newOrderRespType: 'RESULT',
    });
    expect(obj(res.json)).toMatchObject({
      status: 'FILLED',
      executedQty: '0.010',
      cumQty: '0.010',
      avgPrice: '60000.10000',
    });
    const [pos] = arr((await c.signed('GET', '/fapi/v3/positionRisk')).json).map(obj);
    expect(shapeDiff(fixture('http_get_position_risk_v3.json'), [pos], true)).toEqual([]);
    expect(pos).toMatchObject({
      entryPrice: '60000.1',
      // entry × (1 + taker 0.05%)
      breakEvenPrice: '60030.10005',
      unRealizedProfit: '-0.00100000',
      notional: '600.00000000',
      positionInitialMargin: '30.00000000',
      // 600 × 0.4% − 0 (first BTC bracket)
      maintMargin: '2.40000000',
      liquidationPrice: '0',
    });
    const balance = arr((await c.signed('GET', '/fapi/v3/balance')).json).map(obj);
    // 10000 − 0.05% of 600.001
    expect(balance[0]?.balance).toBe('9999.69999950');
  });

  it('expires IOC and FOK orders that cannot fill and rejects a crossing post-only (GTX) order', async () => {
    const c = await scenario();
    for (const timeInForce of ['IOC', 'FOK']) {
      const res = await c.signed('POST', '/fapi/v1/order', {
        ...limitBuy,
        timeInForce,
        newOrderRespType: 'RESULT',
      });
      expect(obj(res.json).status).toBe('EXPIRED');
    }
    const gtx = await c.signed('POST', '/fapi/v1/order', {
      ...limitBuy,
      price: '60000.1',
      timeInForce: 'GTX',
    });
    expect(obj(gtx.json).code).toBe(-5022);
    const resting = await c.signed('POST', '/fapi/v1/order', {
      ...limitBuy,
      price: '60000.0',
      timeInForce: 'GTX',
    });
    expect(obj(resting.json).status).toBe('NEW');
  });

  it('rejects orders that break the symbol filters with Binance codes and messages', async () => {
    const c = await scenario();
    const cases: Array<[Record<string, string>, number, string?]> = [
      [{ price: '59500.001' }, -1111],
      [{ price: '59500.35' }, -4014, 'Price not increased by tick size.'],
      [{ quantity: '0.0105' }, -1111],
      [{ quantity: '0' }, -4003],
      [{ quantity: '1001' }, -4005],
      [
        { quantity: '0.001' },
        -4164,
        "Order's notional must be no smaller than 100 (unless you choose reduce only).",
      ],
      [{ price: '63000.1' }, -4016, "Limit price can't be higher than 63000.00."],
      [{ side: 'SELL', price: '56999.9' }, -4024, "Limit price can't be lower than 57000.00."],
      [{ side: 'UP' }, -1117],
      [{ type: 'STOP_MARKET' }, -4120],
      [{ type: 'ICEBERG' }, -1116],
      [{ symbol: 'DOGEUSDT' }, -1121],
      [{ newClientOrderId: 'has space' }, -1100],
      [{ newClientOrderId: 'x'.repeat(37) }, -4015],
    ];
    for (const [change, code, msg] of cases) {
      const res = await c.signed('POST', '/fapi/v1/order', { ...limitBuy, ...change });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(obj(res.json).code, JSON.stringify(change)).toBe(code);
      if (msg) expect(obj(res.json).msg).toBe(msg);
    }
    const noTif = await c.signed('POST', '/fapi/v1/order', { ...limitBuy, timeInForce: '' });
    expect(obj(noTif.json).msg).toBe(
      "Mandatory parameter 'timeInForce' was not sent, was empty/null, or malformed.",
    );
    // Nothing above reached the book
    expect(arr((await c.signed('GET', '/fapi/v1/openOrders')).json)).toHaveLength(0);
  });

  it('rejects an order the margin cannot carry with -2019', async () => {
    const c = await scenario('20');
    // 0.010 × 59500 / 20x = 29.75 USDT needed, 20 available
    const res = await c.signed('POST', '/fapi/v1/order', limitBuy);
    expect(res.json).toEqual({ code: -2019, msg: 'Margin is insufficient.' });
  });

  it('only lets reduce-only orders shrink a position, exempt from min notional', async () => {
    const c = await scenario();
    const noPosition = await c.signed('POST', '/fapi/v1/order', {
      ...marketOrder('BTCUSDT', 'SELL', '0.010'),
      reduceOnly: 'true',
    });
    expect(noPosition.json).toEqual({ code: -2022, msg: 'ReduceOnly Order is rejected.' });
    await c.signed('POST', '/fapi/v1/order', marketOrder('BTCUSDT', 'BUY', '0.010'));
    // 0.001 BTC is 60 USDT, under the 100 minimum, but reduce-only is exempt
    const partial = await c.signed('POST', '/fapi/v1/order', {
      ...marketOrder('BTCUSDT', 'SELL', '0.001'),
      reduceOnly: 'true',
      newOrderRespType: 'RESULT',
    });
    expect(obj(partial.json)).toMatchObject({ status: 'FILLED', reduceOnly: true });
    const [pos] = arr((await c.signed('GET', '/fapi/v3/positionRisk')).json).map(obj);
    expect(pos?.positionAmt).toBe('0.009');
  });

  it('keeps client order ids unique among open orders and cancels by either id', async () => {
    const c = await scenario();
    const first = obj(
      (await c.signed('POST', '/fapi/v1/order', { ...limitBuy, newClientOrderId: 'same' })).json,
    );
    const dup = await c.signed('POST', '/fapi/v1/order', { ...limitBuy, newClientOrderId: 'same' });
    expect(obj(dup.json).code).toBe(-4116);
    const cancelled = await c.signed('DELETE', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      origClientOrderId: 'same',
    });
    expect(obj(cancelled.json)).toMatchObject({ status: 'CANCELED', orderId: first.orderId });
    const again = await c.signed('DELETE', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      orderId: String(first.orderId),
    });
    expect(again.json).toEqual({ code: -2011, msg: 'Unknown order sent.' });
    const unknown = await c.signed('GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: '999999' });
    expect(unknown.json).toEqual({ code: -2013, msg: 'Order does not exist.' });
    // The id is free again once the first order is closed
    expect((await c.signed('POST', '/fapi/v1/order', { ...limitBuy, newClientOrderId: 'same' })).status).toBe(
      200,
    );
    const all = arr((await c.signed('GET', '/fapi/v1/allOrders', { symbol: 'BTCUSDT' })).json).map(obj);
    expect(all.map((o) => o.status)).toEqual(['CANCELED', 'NEW']);
    await c.signed('DELETE', '/fapi/v1/allOpenOrders', { symbol: 'BTCUSDT' });
    expect(arr((await c.signed('GET', '/fapi/v1/openOrders', { symbol: 'BTCUSDT' })).json)).toHaveLength(0);
  });

  it('pages order history like Binance: newest by default, oldest onwards from a cursor, 7-day windows', async () => {
    const c = await scenario();
    const ids: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      h.until(minute(i + 1));
      ids.push(obj((await c.signed('POST', '/fapi/v1/order', limitBuy)).json).orderId);
    }
    const newest = arr(
      (await c.signed('GET', '/fapi/v1/allOrders', { symbol: 'BTCUSDT', limit: 2 })).json,
    ).map(obj);
    expect(newest.map((o) => o.orderId)).toEqual(ids.slice(1));
    const fromFirst = await c.signed('GET', '/fapi/v1/allOrders', {
      symbol: 'BTCUSDT',
      orderId: String(ids[0]),
      limit: 2,
    });
    expect(arr(fromFirst.json).map((o) => obj(o).orderId)).toEqual(ids.slice(0, 2));
    const window = await c.signed('GET', '/fapi/v1/allOrders', {
      symbol: 'BTCUSDT',
      startTime: minute(2),
      endTime: minute(3) - 1,
    });
    expect(arr(window.json).map((o) => obj(o).orderId)).toEqual([ids[1]]);
    const tooLong = await c.signed('GET', '/fapi/v1/allOrders', {
      symbol: 'BTCUSDT',
      startTime: minute(0),
      endTime: minute(0) + 8 * 86_400_000,
    });
    expect(obj(tooLong.json).code).toBe(-1130);
  });

  it('writes order ids above 2^53 as bare JSON integers, digit for digit', async () => {
    h = await startSim({ firstOrderId: 8389765612825190229n });
    const c = new Client(h.url, h.sim.exchange.createAccount(), h.clock);
    const res = await c.signed('POST', '/fapi/v1/order', limitOrder('SOLUSDT', 'BUY', '1', '100.00'));
    expect(res.text).toContain('"orderId":8389765612825190229,');
    const byId = await c.signed('GET', '/fapi/v1/order', {
      symbol: 'SOLUSDT',
      orderId: '8389765612825190229',
    });
    expect(byId.text).toContain('"orderId":8389765612825190229,');
  });

  it('books realized PnL and commissions as income after a round trip', async () => {
    const c = await scenario();
    await c.signed('POST', '/fapi/v1/order', marketOrder('BTCUSDT', 'BUY', '0.010'));
    h.until(minute(10) + 1000);
    await c.signed('POST', '/fapi/v1/order', marketOrder('BTCUSDT', 'SELL', '0.010'));
    const income = arr((await c.signed('GET', '/fapi/v1/income', { symbol: 'BTCUSDT' })).json).map(obj);
    expect(shapeDiff(fixture('http_get_income.json'), income, true)).toEqual([]);
    const realized = income.filter((i) => i.incomeType === 'REALIZED_PNL');
    // Sold at the bid 61000.0, bought at 60000.1: 0.010 × 999.9
    expect(realized.map((i) => i.income)).toEqual(['9.99900000']);
    expect(income.filter((i) => i.incomeType === 'COMMISSION').map((i) => i.income)).toEqual([
      '-0.30000050',
      '-0.30500000',
    ]);
    expect(arr((await c.signed('GET', '/fapi/v3/positionRisk')).json)).toHaveLength(0);
  });
});

describe('BNB fee discount', () => {
  it('charges fees in BNB, 10 % off at BNBUSDT’s price, while the discount is on and the BNB covers them', async () => {
    h = await startSim({
      feeds: [
        flatReplay('BTCUSDT', [{ fromMinute: -1000, price: 60000 }]),
        flatReplay('BNBUSDT', [{ fromMinute: -1000, price: 600 }]),
      ],
      constantPremium: 0,
    });
    const account = h.sim.exchange.createAccount({ balances: { USDT: '10000', BNB: '0.0006' } });
    const c = new Client(h.url, account, h.clock);
    expect(obj((await c.signed('GET', '/fapi/v1/feeBurn')).json)).toEqual({ feeBurn: false });
    expect(obj((await c.signed('POST', '/fapi/v1/feeBurn', { feeBurn: 'true' })).json)).toEqual({
      code: 200,
      msg: 'success',
    });
    expect(obj((await c.signed('GET', '/fapi/v1/feeBurn')).json)).toEqual({ feeBurn: true });
    const buy = marketOrder('BTCUSDT', 'BUY', '0.010');
    await c.signed('POST', '/fapi/v1/order', buy);
    // Taker 0.05 % of 0.010 × 60000.1 = 0.30000050 USDT; 90 % of it at 600 USDT a BNB = 0.00045000075 → 0.00045001
    const [first] = arr((await c.signed('GET', '/fapi/v1/userTrades', { symbol: 'BTCUSDT' })).json).map(obj);
    expect(first).toMatchObject({ commission: '0.00045001', commissionAsset: 'BNB' });
    expect(account.balances.get('BNB')?.toFixed()).toBe('0.00014999');
    // The USDT wallet paid no fee
    expect(account.balances.get('USDT')?.toFixed()).toBe('10000');
    // The BNB left cannot pay the next fee: it is taken in USDT
    await c.signed('POST', '/fapi/v1/order', buy);
    const trades = arr((await c.signed('GET', '/fapi/v1/userTrades', { symbol: 'BTCUSDT' })).json).map(obj);
    expect(trades.map((t) => t.commissionAsset)).toEqual(['BNB', 'USDT']);
    const income = arr((await c.signed('GET', '/fapi/v1/income', { incomeType: 'COMMISSION' })).json).map(
      obj,
    );
    expect(income.map((i) => [i.income, i.asset])).toEqual([
      ['-0.00045001', 'BNB'],
      ['-0.30000050', 'USDT'],
    ]);
  });
});

describe('account settings', () => {
  it('validates leverage and margin type changes like Binance', async () => {
    const c = await scenario();
    expect(
      obj((await c.signed('POST', '/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: 126 })).json),
    ).toEqual({
      code: -4028,
      msg: 'Leverage 126 is not valid',
    });
    const same = await c.signed('POST', '/fapi/v1/marginType', { symbol: 'BTCUSDT', marginType: 'CROSSED' });
    expect(same.json).toEqual({ code: -4046, msg: 'No need to change margin type.' });
    const iso = await c.signed('POST', '/fapi/v1/marginType', { symbol: 'BTCUSDT', marginType: 'ISOLATED' });
    expect(shapeDiff(fixture('http_post_margin_type.json'), iso.json, true)).toEqual([]);
    await c.signed('POST', '/fapi/v1/order', marketOrder('BTCUSDT', 'BUY', '0.010'));
    const locked = await c.signed('POST', '/fapi/v1/marginType', {
      symbol: 'BTCUSDT',
      marginType: 'CROSSED',
    });
    expect(obj(locked.json).code).toBe(-4048);
    const [pos] = arr((await c.signed('GET', '/fapi/v3/positionRisk')).json).map(obj);
    // Isolated wallet = 0.010 × 60000.1 / 20
    expect(pos?.isolatedWallet).toBe('30.00005000');
    const config = arr((await c.signed('GET', '/fapi/v1/symbolConfig', { symbol: 'BTCUSDT' })).json).map(obj);
    expect(config[0]).toMatchObject({ marginType: 'ISOLATED', leverage: 20 });
  });

  it('serves leverage brackets with cum computed by the bracket rule, and commission rates', async () => {
    const c = await scenario();
    const res = await c.signed('GET', '/fapi/v1/leverageBracket', { symbol: 'BTCUSDT' });
    expect(shapeDiff(fixture('http_get_leverage_bracket.json'), res.json)).toEqual([]);
    const brackets = arr(obj(arr(res.json)[0]).brackets).map(obj);
    // Binance's published BTCUSDT cums: 0, 50, 950, 11450
    expect(brackets.slice(0, 4).map((b) => b.cum)).toEqual([0, 50, 950, 11450]);
    const fees = await c.signed('GET', '/fapi/v1/commissionRate', { symbol: 'BTCUSDT' });
    expect(shapeDiff(fixture('http_get_commission_rate.json'), fees.json, true)).toEqual([]);
    expect(obj(fees.json)).toMatchObject({ makerCommissionRate: '0.0002', takerCommissionRate: '0.0005' });
  });

  it('runs hedge mode with LONG and SHORT positions side by side', async () => {
    const c = await scenario();
    expect((await c.signed('POST', '/fapi/v1/positionSide/dual', { dualSidePosition: 'true' })).json).toEqual(
      {
        code: 200,
        msg: 'success',
      },
    );
    expect((await c.signed('GET', '/fapi/v1/positionSide/dual')).json).toEqual({ dualSidePosition: true });
    expect(obj((await c.signed('GET', '/fapi/v1/accountConfig')).json)).toMatchObject({
      dualSidePosition: true,
      canTrade: true,
      multiAssetsMargin: false,
    });
    const both = await c.signed('POST', '/fapi/v1/order', marketOrder('BTCUSDT', 'BUY', '0.010'));
    expect(obj(both.json).code).toBe(-4061);
    const ro = await c.signed('POST', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      positionSide: 'LONG',
      type: 'MARKET',
      quantity: '0.010',
      reduceOnly: 'false',
    });
    expect(ro.json).toEqual({ code: -1106, msg: "Parameter 'reduceonly' sent when not required." });
    for (const [side, positionSide] of [
      ['BUY', 'LONG'],
      ['SELL', 'SHORT'],
    ] as const) {
      const r = await c.signed('POST', '/fapi/v1/order', {
        symbol: 'BTCUSDT',
        side,
        positionSide,
        type: 'MARKET',
        quantity: '0.010',
      });
      expect(r.status).toBe(200);
    }
    const positions = arr((await c.signed('GET', '/fapi/v3/positionRisk')).json).map(obj);
    expect(positions.map((p) => [p.positionSide, p.positionAmt])).toEqual([
      ['LONG', '0.010'],
      ['SHORT', '-0.010'],
    ]);
    // Closing more than the LONG side holds is rejected
    const over = await c.signed('POST', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      side: 'SELL',
      positionSide: 'LONG',
      type: 'MARKET',
      quantity: '0.020',
    });
    expect(obj(over.json).code).toBe(-2022);
    const mode = await c.signed('POST', '/fapi/v1/positionSide/dual', { dualSidePosition: 'false' });
    expect(obj(mode.json).code).toBe(-4068);
  });
});
