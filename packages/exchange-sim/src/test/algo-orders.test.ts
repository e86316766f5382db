import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { arr, Client, flatReplay, type Harness, marketOrder, minute, obj, startSim } from './harness';
import { fixture, shapeDiff } from './shape';

let h: Harness;
afterEach(() => h.close());

/** BTCUSDT on the price path `legs` (mark = last), an account with 10000 USDT holding a 0.010 long */
async function scenario(legs: Array<{ fromMinute: number; price: number }>) {
  h = await startSim({ feeds: [flatReplay('BTCUSDT', legs)], constantPremium: 0 });
  const account = h.sim.exchange.createAccount({ balances: { USDT: '10000' } });
  const client = new Client(h.url, account, h.clock);
  await client.signed('POST', '/fapi/v1/order', marketOrder('BTCUSDT', 'BUY', '0.010'));
  return client;
}

const stop = { algoType: 'CONDITIONAL', symbol: 'BTCUSDT', side: 'SELL', type: 'STOP_MARKET' };

describe('conditional orders on /fapi/v1/algoOrder', () => {
  it('closes the position with a STOP_MARKET closePosition once the price falls to the trigger', async () => {
    const c = await scenario([
      { fromMinute: -1000, price: 60000 },
      { fromMinute: 5, price: 58000 },
    ]);
    const placed = await c.signed('POST', '/fapi/v1/algoOrder', {
      ...stop,
      triggerPrice: '59000.0',
      closePosition: 'true',
    });
    expect(shapeDiff(fixture('http_post_algo_order.json'), placed.json, true)).toEqual([]);
    expect(obj(placed.json)).toMatchObject({
      algoStatus: 'NEW',
      closePosition: true,
      triggerPrice: '59000.00',
    });
    const algoId = Number(obj(placed.json).algoId);
    // Untriggered algo orders hold no margin
    expect(obj((await c.signed('GET', '/fapi/v3/account')).json).totalOpenOrderInitialMargin).toBe(
      '0.00000000',
    );

    h.until(minute(5) + 1000);
    const after = await c.signed('GET', '/fapi/v1/algoOrder', { algoId });
    expect(shapeDiff(fixture('http_get_algo_order.json'), after.json, true)).toEqual([]);
    expect(obj(after.json)).toMatchObject({ algoStatus: 'FINISHED', triggerTime: minute(5) });
    const order = await c.signed('GET', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      orderId: String(obj(after.json).actualOrderId),
    });
    expect(obj(order.json)).toMatchObject({
      type: 'MARKET',
      status: 'FILLED',
      reduceOnly: true,
      executedQty: '0.010',
    });
    expect(arr((await c.signed('GET', '/fapi/v3/positionRisk')).json)).toHaveLength(0);
  });

  it('refuses a trigger that would fire at once with -2021', async () => {
    const c = await scenario([{ fromMinute: -1000, price: 60000 }]);
    const res = await c.signed('POST', '/fapi/v1/algoOrder', {
      ...stop,
      triggerPrice: '60500.0',
      quantity: '0.010',
    });
    expect(res.json).toEqual({ code: -2021, msg: 'Order would immediately trigger.' });
    const both = await c.signed('POST', '/fapi/v1/algoOrder', {
      ...stop,
      triggerPrice: '59000.0',
      quantity: '0.010',
      closePosition: 'true',
    });
    expect(obj(both.json).code).toBe(-1106);
  });

  it('takes profit on a TAKE_PROFIT_MARKET reduce-only order for part of the position', async () => {
    const c = await scenario([
      { fromMinute: -1000, price: 60000 },
      { fromMinute: 10, price: 61500 },
    ]);
    await c.signed('POST', '/fapi/v1/algoOrder', {
      ...stop,
      type: 'TAKE_PROFIT_MARKET',
      triggerPrice: '61000.0',
      quantity: '0.004',
      reduceOnly: 'true',
      clientAlgoId: 'tp-1',
    });
    h.until(minute(9));
    expect(obj((await c.signed('GET', '/fapi/v1/algoOrder', { clientAlgoId: 'tp-1' })).json).algoStatus).toBe(
      'NEW',
    );
    h.until(minute(10) + 1000);
    expect(obj((await c.signed('GET', '/fapi/v1/algoOrder', { clientAlgoId: 'tp-1' })).json).algoStatus).toBe(
      'FINISHED',
    );
    const [pos] = arr((await c.signed('GET', '/fapi/v3/positionRisk')).json).map(obj);
    expect(pos?.positionAmt).toBe('0.006');
  });

  it('trails the highest price and sells on a callbackRate% pull-back', async () => {
    const c = await scenario([
      { fromMinute: -1000, price: 60000 },
      { fromMinute: 5, price: 61000 },
      { fromMinute: 10, price: 60500 },
      { fromMinute: 15, price: 60300 },
    ]);
    const placed = await c.signed('POST', '/fapi/v1/algoOrder', {
      ...stop,
      type: 'TRAILING_STOP_MARKET',
      quantity: '0.010',
      reduceOnly: 'true',
      activatePrice: '60500.0',
      callbackRate: '1',
    });
    expect(obj(placed.json)).toMatchObject({ activatePrice: '60500.00', callbackRate: '1' });
    // Highest 61000: triggers at or below 61000 × 0.99 = 60390, so not at 60500
    h.until(minute(14));
    expect(arr((await c.signed('GET', '/fapi/v1/openAlgoOrders')).json)).toHaveLength(1);
    h.until(minute(15) + 1000);
    expect(arr((await c.signed('GET', '/fapi/v1/openAlgoOrders')).json)).toHaveLength(0);
    expect(arr((await c.signed('GET', '/fapi/v3/positionRisk')).json)).toHaveLength(0);
  });

  it('cancels by id or client id and pushes ALGO_UPDATE on the user stream', async () => {
    const c = await scenario([{ fromMinute: -1000, price: 60000 }]);
    const key = String(obj((await c.keyed('POST', '/fapi/v1/listenKey')).json).listenKey);
    const ws = new WebSocket(`${h.wsUrl}/private/ws/${key}`);
    const update = new Promise<Record<string, unknown>>((resolve) =>
      ws.on('message', (d) => {
        const m = JSON.parse(d.toString()) as Record<string, unknown>;
        if (m.e === 'ALGO_UPDATE' && obj(m.o).X === 'CANCELED') resolve(m);
      }),
    );
    await new Promise((resolve) => ws.once('open', resolve));
    await c.signed('POST', '/fapi/v1/algoOrder', {
      ...stop,
      triggerPrice: '59000.0',
      quantity: '0.010',
      clientAlgoId: 'sl-1',
    });
    const cancelled = await c.signed('DELETE', '/fapi/v1/algoOrder', { clientAlgoId: 'sl-1' });
    expect(shapeDiff(fixture('http_delete_algo_order.json'), cancelled.json, true)).toEqual([]);
    const event = await update;
    expect(shapeDiff(fixture('ws_algo_update.json'), event, true)).toEqual([]);
    expect(obj(event.o)).toMatchObject({ caid: 'sl-1', o: 'STOP_MARKET', tp: '59000' });
    ws.terminate();
    expect(obj((await c.signed('DELETE', '/fapi/v1/algoOrder', { clientAlgoId: 'sl-1' })).json).code).toBe(
      -2011,
    );
  });
});

describe('STOP and TAKE_PROFIT (limit) conditional orders', () => {
  /** Closes the whole 0.010 long; each test names the type */
  const conditional = { ...stop, quantity: '0.010', reduceOnly: 'true' };

  it('STOP: at the trigger a limit order is sent, and fills within its price', async () => {
    const client = await scenario([
      { fromMinute: -1000, price: 60000 },
      { fromMinute: 5, price: 58950 },
    ]);
    const placed = await client.signed('POST', '/fapi/v1/algoOrder', {
      ...conditional,
      type: 'STOP',
      triggerPrice: '59000.0',
      price: '58900.0',
      timeInForce: 'GTC',
      clientAlgoId: 'stop-limit',
    });
    expect(obj(placed.json)).toMatchObject({
      orderType: 'STOP',
      price: '58900.00',
      triggerPrice: '59000.00',
    });
    // A STOP without its limit price is refused
    const noPrice = await client.signed('POST', '/fapi/v1/algoOrder', {
      ...conditional,
      type: 'STOP',
      triggerPrice: '59000.0',
    });
    expect(obj(noPrice.json).code).toBe(-1102);

    h.until(minute(5) + 1000);
    const algo = obj((await client.signed('GET', '/fapi/v1/algoOrder', { clientAlgoId: 'stop-limit' })).json);
    expect(algo.algoStatus).toBe('FINISHED');
    const order = obj(
      (
        await client.signed('GET', '/fapi/v1/order', {
          symbol: 'BTCUSDT',
          orderId: String(algo.actualOrderId),
        })
      ).json,
    );
    // Sold into the bids at the new price, which is above the limit
    expect(order).toMatchObject({
      type: 'LIMIT',
      status: 'FILLED',
      price: '58900.00',
      avgPrice: '58950.00000',
    });
    expect(arr((await client.signed('GET', '/fapi/v3/positionRisk')).json)).toHaveLength(0);
  });

  it('TAKE_PROFIT: the limit order rests after the trigger until the price reaches it', async () => {
    const client = await scenario([
      { fromMinute: -1000, price: 60000 },
      { fromMinute: 5, price: 61000 },
      { fromMinute: 10, price: 61300 },
    ]);
    await client.signed('POST', '/fapi/v1/algoOrder', {
      ...conditional,
      type: 'TAKE_PROFIT',
      triggerPrice: '61000.0',
      price: '61200.0',
      timeInForce: 'GTC',
      clientAlgoId: 'tp-limit',
    });
    h.until(minute(5) + 1000);
    const triggered = obj(
      (await client.signed('GET', '/fapi/v1/algoOrder', { clientAlgoId: 'tp-limit' })).json,
    );
    expect(triggered.algoStatus).toBe('TRIGGERED');
    const [resting] = arr((await client.signed('GET', '/fapi/v1/openOrders')).json).map(obj);
    expect(resting).toMatchObject({
      type: 'LIMIT',
      side: 'SELL',
      price: '61200.00',
      status: 'NEW',
      reduceOnly: true,
    });

    h.until(minute(10) + 1000);
    const order = obj(
      (
        await client.signed('GET', '/fapi/v1/order', {
          symbol: 'BTCUSDT',
          orderId: String(triggered.actualOrderId),
        })
      ).json,
    );
    expect(order).toMatchObject({ status: 'FILLED', avgPrice: '61200.00000' });
    expect(arr((await client.signed('GET', '/fapi/v3/positionRisk')).json)).toHaveLength(0);
  });
});
