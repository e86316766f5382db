import { afterEach, describe, expect, it } from 'vitest';
import { arr, Client, flatReplay, type Harness, obj, startSim, T0 } from './harness';

let h: Harness;
afterEach(() => h.close());

/** BTCUSDT and ETHUSDT held flat, so resting orders below the market never fill on their own */
async function scenario() {
  h = await startSim({
    feeds: [
      flatReplay('BTCUSDT', [{ fromMinute: -1000, price: 60000 }]),
      flatReplay('ETHUSDT', [{ fromMinute: -1000, price: 3000 }]),
    ],
    constantPremium: 0,
  });
  const account = h.sim.exchange.createAccount({ balances: { USDT: '10000' } });
  const c = new Client(h.url, account, h.clock);
  const rest = async (symbol: string, price: string, quantity: string, id: string) => {
    const r = await c.signed('POST', '/fapi/v1/order', {
      symbol,
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTC',
      quantity,
      price,
      newClientOrderId: id,
    });
    expect(r.status).toBe(200);
  };
  await rest('BTCUSDT', '50000.0', '0.010', 'btc-1');
  await rest('BTCUSDT', '51000.0', '0.010', 'btc-2');
  await rest('ETHUSDT', '2500.00', '0.100', 'eth-1');
  const open = async (symbol: string) =>
    arr((await c.signed('GET', '/fapi/v1/openOrders', { symbol })).json).map((o) => obj(o).clientOrderId);
  return { c, open };
}

describe('POST /fapi/v1/countdownCancelAll (dead-man switch)', () => {
  it('cancels every open order of the symbol once the countdown ends without a refresh, and only that symbol', async () => {
    const { c, open } = await scenario();
    const armed = await c.signed('POST', '/fapi/v1/countdownCancelAll', {
      symbol: 'BTCUSDT',
      countdownTime: 10_000,
    });
    expect(armed.status).toBe(200);
    expect(armed.json).toEqual({ symbol: 'BTCUSDT', countdownTime: '10000' });

    h.until(T0 + 9_000);
    expect(await open('BTCUSDT')).toHaveLength(2);
    h.until(T0 + 10_000);
    expect(await open('BTCUSDT')).toEqual([]);
    expect(await open('ETHUSDT')).toEqual(['eth-1']);
    const one = await c.signed('GET', '/fapi/v1/order', { symbol: 'BTCUSDT', origClientOrderId: 'btc-1' });
    expect(obj(one.json).status).toBe('CANCELED');
  });

  it('a refresh before the end replaces the deadline, so heartbeats keep the orders', async () => {
    const { c, open } = await scenario();
    await c.signed('POST', '/fapi/v1/countdownCancelAll', { symbol: 'BTCUSDT', countdownTime: 10_000 });
    h.until(T0 + 8_000);
    await c.signed('POST', '/fapi/v1/countdownCancelAll', { symbol: 'BTCUSDT', countdownTime: 10_000 });
    h.until(T0 + 16_000);
    expect(await open('BTCUSDT')).toHaveLength(2);
    h.until(T0 + 18_000);
    expect(await open('BTCUSDT')).toEqual([]);
  });

  it('countdownTime 0 disarms it: the orders outlive the old deadline', async () => {
    const { c, open } = await scenario();
    await c.signed('POST', '/fapi/v1/countdownCancelAll', { symbol: 'BTCUSDT', countdownTime: 5_000 });
    const off = await c.signed('POST', '/fapi/v1/countdownCancelAll', {
      symbol: 'BTCUSDT',
      countdownTime: 0,
    });
    expect(off.json).toEqual({ symbol: 'BTCUSDT', countdownTime: '0' });
    h.until(T0 + 60_000);
    expect(await open('BTCUSDT')).toHaveLength(2);
  });

  it('fires once: orders placed after it fired are not cancelled by the spent countdown', async () => {
    const { c, open } = await scenario();
    await c.signed('POST', '/fapi/v1/countdownCancelAll', { symbol: 'BTCUSDT', countdownTime: 2_000 });
    h.until(T0 + 3_000);
    expect(await open('BTCUSDT')).toEqual([]);
    await c.signed('POST', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTC',
      quantity: '0.010',
      price: '50000.0',
      newClientOrderId: 'btc-3',
    });
    h.until(T0 + 30_000);
    expect(await open('BTCUSDT')).toEqual(['btc-3']);
  });

  it('refuses a missing or malformed countdownTime and an unknown symbol with Binance codes', async () => {
    const { c } = await scenario();
    const missing = await c.signed('POST', '/fapi/v1/countdownCancelAll', { symbol: 'BTCUSDT' });
    expect(missing.status).toBe(400);
    expect(obj(missing.json).code).toBe(-1102);
    const bad = await c.signed('POST', '/fapi/v1/countdownCancelAll', {
      symbol: 'BTCUSDT',
      countdownTime: '-5',
    });
    expect(obj(bad.json).code).toBe(-1102);
    const unknown = await c.signed('POST', '/fapi/v1/countdownCancelAll', {
      symbol: 'NOPEUSDT',
      countdownTime: 1000,
    });
    expect(obj(unknown.json).code).toBe(-1121);
  });
});
