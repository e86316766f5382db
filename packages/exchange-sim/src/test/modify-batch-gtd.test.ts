import { afterEach, describe, expect, it } from 'vitest';
import type { UserEvent } from '../matching/events';
import { arr, Client, flatReplay, type Harness, obj, startSim, T0 } from './harness';

let h: Harness;
afterEach(() => h.close());

/** BTCUSDT on a known price path (60000 unless `legs` say otherwise), an account with 100000 USDT */
async function start(legs = [{ fromMinute: -1000, price: 60000 }], bookDepth?: number) {
  h = await startSim({ feeds: [flatReplay('BTCUSDT', legs)], constantPremium: 0, bookDepth });
  const account = h.sim.exchange.createAccount({ balances: { USDT: '100000' } });
  const events: UserEvent[] = [];
  h.sim.exchange.onUserEvent((_id, e) => events.push(e));
  return { client: new Client(h.url, account, h.clock), events };
}

const limit = (price: string, quantity: string, extra: Record<string, string> = {}) => ({
  symbol: 'BTCUSDT',
  side: 'BUY',
  type: 'LIMIT',
  timeInForce: 'GTC',
  price,
  quantity,
  ...extra,
});
const executions = (events: UserEvent[], c: string) =>
  events.flatMap((e) => (e.e === 'ORDER_TRADE_UPDATE' && e.o.c === c ? [e.o.x] : []));

describe('PUT /fapi/v1/order (modify)', () => {
  it('amends price and quantity of a resting LIMIT order and pushes x=AMENDMENT', async () => {
    const { client, events } = await start();
    await client.signed('POST', '/fapi/v1/order', limit('59000.0', '0.010', { newClientOrderId: 'm-1' }));
    const res = await client.signed('PUT', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      origClientOrderId: 'm-1',
      side: 'BUY',
      price: '59500.0',
      quantity: '0.020',
    });
    expect(res.status).toBe(200);
    expect(obj(res.json)).toMatchObject({
      status: 'NEW',
      price: '59500.00',
      origQty: '0.020',
      clientOrderId: 'm-1',
    });
    expect(executions(events, 'm-1')).toEqual(['NEW', 'AMENDMENT']);
    const [open] = arr((await client.signed('GET', '/fapi/v1/openOrders')).json).map(obj);
    expect(open).toMatchObject({ price: '59500.00', origQty: '0.020' });
  });

  it('refuses what Binance refuses and leaves the order as it was', async () => {
    const { client } = await start();
    const placed = obj((await client.signed('POST', '/fapi/v1/order', limit('59000.0', '0.010'))).json);
    const modify = (params: Record<string, string>) =>
      client.signed('PUT', '/fapi/v1/order', {
        symbol: 'BTCUSDT',
        orderId: String(placed.orderId),
        side: 'BUY',
        price: '59000.0',
        quantity: '0.010',
        ...params,
      });
    expect((await modify({})).json).toEqual({ code: -5027, msg: 'No need to modify the order.' });
    expect(obj((await modify({ price: '59000.05' })).json).code).toBe(-4014);
    expect(obj((await modify({ quantity: '0.0105' })).json).code).toBe(-1111);
    const noPrice = await client.signed('PUT', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      orderId: String(placed.orderId),
      side: 'BUY',
      quantity: '0.020',
    });
    expect(obj(noPrice.json)).toEqual({
      code: -1102,
      msg: "Mandatory parameter 'price' was not sent, was empty/null, or malformed.",
    });
    expect(obj((await modify({ orderId: '999999', price: '59100.0' })).json).code).toBe(-2013);
    const [open] = arr((await client.signed('GET', '/fapi/v1/openOrders')).json).map(obj);
    expect(open).toMatchObject({ price: '59000.00', origQty: '0.010' });
  });

  it('a new price that crosses the book trades at once as taker', async () => {
    const { client, events } = await start();
    await client.signed('POST', '/fapi/v1/order', limit('59000.0', '0.010', { newClientOrderId: 'm-2' }));
    const res = await client.signed('PUT', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      origClientOrderId: 'm-2',
      side: 'BUY',
      price: '60010.0',
      quantity: '0.010',
    });
    expect(obj(res.json)).toMatchObject({ status: 'FILLED', executedQty: '0.010', avgPrice: '60000.10000' });
    expect(executions(events, 'm-2')).toEqual(['NEW', 'AMENDMENT', 'TRADE']);
  });

  it('cancels instead: a GTX order moved onto the book, or a quantity no more than what has filled', async () => {
    const { client } = await start([{ fromMinute: -1000, price: 60000 }], 0.01);
    await client.signed(
      'POST',
      '/fapi/v1/order',
      limit('59000.0', '0.010', { timeInForce: 'GTX', newClientOrderId: 'gtx' }),
    );
    const gtx = await client.signed('PUT', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      origClientOrderId: 'gtx',
      side: 'BUY',
      price: '60100.0',
      quantity: '0.010',
    });
    expect(obj(gtx.json)).toMatchObject({ status: 'CANCELED', executedQty: '0.000' });

    // A buy far bigger than the thin book's levels up to its price fills in part and rests
    const partial = obj(
      (
        await client.signed(
          'POST',
          '/fapi/v1/order',
          limit('60000.1', '1.000', { newOrderRespType: 'RESULT', newClientOrderId: 'part' }),
        )
      ).json,
    );
    expect(partial.status).toBe('PARTIALLY_FILLED');
    const res = await client.signed('PUT', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      origClientOrderId: 'part',
      side: 'BUY',
      price: '59000.0',
      quantity: String(partial.executedQty),
    });
    expect(obj(res.json)).toMatchObject({
      status: 'CANCELED',
      executedQty: partial.executedQty,
      origQty: '1.000',
    });
  });
});

describe('batch orders', () => {
  it('POST /fapi/v1/batchOrders answers each item: the order, or its own error', async () => {
    const { client } = await start();
    const res = await client.signed('POST', '/fapi/v1/batchOrders', {
      batchOrders: JSON.stringify([
        limit('59000.0', '0.010', { newClientOrderId: 'b-1' }),
        limit('1000.0', '0.001'),
        { symbol: 'BTCUSDT', side: 'SELL', type: 'STOP_MARKET', quantity: '0.010', stopPrice: '59000.0' },
        { ...limit('59000.0', '0.010'), newClientOrderId: 'b-1' },
      ]),
    });
    expect(res.status).toBe(200);
    const [ok, notional, stop, duplicate] = arr(res.json).map(obj);
    expect(ok).toMatchObject({ status: 'NEW', clientOrderId: 'b-1', price: '59000.00' });
    expect(notional).toEqual({
      code: -4164,
      msg: "Order's notional must be no smaller than 100 (unless you choose reduce only).",
    });
    expect(stop?.code).toBe(-4120);
    expect(duplicate?.code).toBe(-4116);
    expect(arr((await client.signed('GET', '/fapi/v1/openOrders')).json)).toHaveLength(1);
  });

  it('a batch costs 5 in the 10 s ORDERS window and 1 in the minute one', async () => {
    h = await startSim({
      feeds: [flatReplay('BTCUSDT', [{ fromMinute: -1000, price: 60000 }])],
      rateLimits: { ordersPer10s: 12 },
    });
    const account = h.sim.exchange.createAccount({ balances: { USDT: '100000' } });
    const client = new Client(h.url, account, h.clock);
    const batch = () =>
      client.signed('POST', '/fapi/v1/batchOrders', {
        batchOrders: JSON.stringify([limit('59000.0', '0.010')]),
      });
    const first = await batch();
    expect([first.headers.get('x-mbx-order-count-10s'), first.headers.get('x-mbx-order-count-1m')]).toEqual([
      '5',
      '1',
    ]);
    expect((await batch()).headers.get('x-mbx-order-count-10s')).toBe('10');
    const third = await batch();
    expect(third.status).toBe(429);
    expect(obj(third.json)).toEqual({
      code: -1015,
      msg: 'Too many new orders; current limit is 12 orders per 10s.',
    });
    // A single order still fits
    const single = await client.signed('POST', '/fapi/v1/order', limit('59000.0', '0.010'));
    expect(single.headers.get('x-mbx-order-count-10s')).toBe('11');
  });

  it('refuses more than 5 orders, or a list that is not JSON', async () => {
    const { client } = await start();
    const six = await client.signed('POST', '/fapi/v1/batchOrders', {
      batchOrders: JSON.stringify(Array.from({ length: 6 }, () => limit('59000.0', '0.010'))),
    });
    expect(six.status).toBe(400);
    expect(obj(six.json).code).toBe(-1130);
    const junk = await client.signed('POST', '/fapi/v1/batchOrders', { batchOrders: '[{' });
    expect(obj(junk.json).code).toBe(-1102);
    expect(arr((await client.signed('GET', '/fapi/v1/openOrders')).json)).toHaveLength(0);
  });

  it('PUT /fapi/v1/batchOrders modifies several orders, DELETE cancels by id or client id list', async () => {
    const { client } = await start();
    const placed = arr(
      (
        await client.signed('POST', '/fapi/v1/batchOrders', {
          batchOrders: JSON.stringify([
            limit('59000.0', '0.010', { newClientOrderId: 'x-1' }),
            limit('58000.0', '0.010', { newClientOrderId: 'x-2' }),
            limit('57000.0', '0.010', { newClientOrderId: 'x-3' }),
          ]),
        })
      ).json,
    ).map(obj);
    const modified = arr(
      (
        await client.signed('PUT', '/fapi/v1/batchOrders', {
          batchOrders: JSON.stringify([
            {
              symbol: 'BTCUSDT',
              orderId: placed[0]?.orderId,
              side: 'BUY',
              price: '59100.0',
              quantity: '0.010',
            },
            {
              symbol: 'BTCUSDT',
              origClientOrderId: 'x-2',
              side: 'SELL',
              price: '58100.0',
              quantity: '0.010',
            },
          ]),
        })
      ).json,
    ).map(obj);
    expect(modified[0]).toMatchObject({ clientOrderId: 'x-1', price: '59100.00' });
    expect(modified[1]?.code).toBe(-1117);

    const byId = arr(
      (
        await client.signed('DELETE', '/fapi/v1/batchOrders', {
          symbol: 'BTCUSDT',
          orderIdList: `[${placed[0]?.orderId},424242]`,
        })
      ).json,
    ).map(obj);
    expect(byId[0]).toMatchObject({ clientOrderId: 'x-1', status: 'CANCELED' });
    expect(byId[1]).toEqual({ code: -2011, msg: 'Unknown order sent.' });
    const byClientId = arr(
      (
        await client.signed('DELETE', '/fapi/v1/batchOrders', {
          symbol: 'BTCUSDT',
          origClientOrderIdList: JSON.stringify(['x-2', 'x-3']),
        })
      ).json,
    ).map(obj);
    expect(byClientId.map((o) => o.status)).toEqual(['CANCELED', 'CANCELED']);
    expect(arr((await client.signed('GET', '/fapi/v1/openOrders')).json)).toHaveLength(0);
  });
});

describe('GTD time in force', () => {
  it('needs a goodTillDate more than 600 s ahead, keeps whole seconds, and expires the order then', async () => {
    const { client, events } = await start();
    const missing = await client.signed(
      'POST',
      '/fapi/v1/order',
      limit('59000.0', '0.010', { timeInForce: 'GTD' }),
    );
    expect(obj(missing.json)).toEqual({
      code: -1102,
      msg: "Mandatory parameter 'goodTillDate' was not sent, was empty/null, or malformed.",
    });
    const soon = await client.signed(
      'POST',
      '/fapi/v1/order',
      limit('59000.0', '0.010', { timeInForce: 'GTD', goodTillDate: String(T0 + 600_000) }),
    );
    expect(obj(soon.json).code).toBe(-5040);
    const notGtd = await client.signed(
      'POST',
      '/fapi/v1/order',
      limit('59000.0', '0.010', { goodTillDate: String(T0 + 700_000) }),
    );
    expect(obj(notGtd.json).code).toBe(-1106);

    const expiry = T0 + 700_000;
    const placed = obj(
      (
        await client.signed(
          'POST',
          '/fapi/v1/order',
          limit('59000.0', '0.010', {
            timeInForce: 'GTD',
            goodTillDate: String(expiry + 345),
            newClientOrderId: 'gtd-1',
          }),
        )
      ).json,
    );
    expect(placed).toMatchObject({ status: 'NEW', timeInForce: 'GTD', goodTillDate: expiry });
    h.until(expiry - 1000);
    expect(arr((await client.signed('GET', '/fapi/v1/openOrders')).json)).toHaveLength(1);
    h.until(expiry);
    const order = obj(
      (await client.signed('GET', '/fapi/v1/order', { symbol: 'BTCUSDT', origClientOrderId: 'gtd-1' })).json,
    );
    expect(order).toMatchObject({ status: 'EXPIRED', updateTime: expiry });
    expect(executions(events, 'gtd-1')).toEqual(['NEW', 'EXPIRED']);
    const update = events.find((e) => e.e === 'ORDER_TRADE_UPDATE' && e.o.c === 'gtd-1');
    expect(update?.e === 'ORDER_TRADE_UPDATE' && update.o.gtd).toBe(expiry);
  });
});
