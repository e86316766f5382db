import { afterEach, describe, expect, it } from 'vitest';
import type { UserEvent } from '../matching/events';
import { arr, Client, flatReplay, type Harness, marketOrder, minute, obj, startSim, T0 } from './harness';

let h: Harness;
afterEach(() => h.close());

async function run(legs: Array<{ fromMinute: number; price: number }>, balance: string, constantPremium = 0) {
  h = await startSim({ feeds: [flatReplay('BTCUSDT', legs)], constantPremium });
  const account = h.sim.exchange.createAccount({ balances: { USDT: balance } });
  return { account, client: new Client(h.url, account, h.clock) };
}

const buy = marketOrder('BTCUSDT', 'BUY', '0.010');

describe('funding', () => {
  it('charges positionAmt × mark × rate at 16:00 UTC: longs pay when the rate is positive', async () => {
    // Premium 0.01% gives a funding rate of exactly 0.01%
    const { client } = await run([{ fromMinute: -1000, price: 60000 }], '1000', 0.0001);
    await client.signed('POST', '/fapi/v1/order', buy);
    const before = obj(arr((await client.signed('GET', '/fapi/v3/balance')).json)[0]).balance;
    h.until(Date.UTC(2026, 0, 15, 15, 59, 59));
    expect(
      arr((await client.signed('GET', '/fapi/v1/income', { incomeType: 'FUNDING_FEE' })).json),
    ).toHaveLength(0);
    h.until(Date.UTC(2026, 0, 15, 16, 0, 1));
    const funding = arr(
      (await client.signed('GET', '/fapi/v1/income', { incomeType: 'FUNDING_FEE' })).json,
    ).map(obj);
    // 0.010 × 60000 × 0.0001
    expect(funding).toHaveLength(1);
    expect(funding[0]).toMatchObject({
      income: '-0.06000000',
      symbol: 'BTCUSDT',
      time: Date.UTC(2026, 0, 15, 16),
    });
    const after = obj(arr((await client.signed('GET', '/fapi/v3/balance')).json)[0]).balance;
    expect(Number(after) - Number(before)).toBeCloseTo(-0.06, 8);
    const premium = obj((await client.get('/fapi/v1/premiumIndex', { symbol: 'BTCUSDT' })).json);
    expect(premium).toMatchObject({ lastFundingRate: '0.00010000', nextFundingTime: Date.UTC(2026, 0, 16) });
  });

  it('pushes ACCOUNT_UPDATE with reason FUNDING_FEE and, for cross margin, balances only', async () => {
    const { client } = await run([{ fromMinute: -1000, price: 60000 }], '1000', 0.0001);
    await client.signed('POST', '/fapi/v1/order', buy);
    const events: UserEvent[] = [];
    h.sim.exchange.onUserEvent((_id, e) => events.push(e));
    h.until(Date.UTC(2026, 0, 15, 16, 0, 1));
    const funding = events.find((e) => e.e === 'ACCOUNT_UPDATE' && e.a.m === 'FUNDING_FEE');
    expect(funding?.e === 'ACCOUNT_UPDATE' && funding.a.P).toEqual([]);
    expect(funding?.e === 'ACCOUNT_UPDATE' && funding.a.B[0]?.wb).toBe('999.63999950');
  });

  it('pays a short when the rate is positive', async () => {
    const { client } = await run([{ fromMinute: -1000, price: 60000 }], '1000', 0.0001);
    await client.signed('POST', '/fapi/v1/order', { ...buy, side: 'SELL' });
    h.until(Date.UTC(2026, 0, 15, 16, 0, 1));
    const funding = arr(
      (await client.signed('GET', '/fapi/v1/income', { incomeType: 'FUNDING_FEE' })).json,
    ).map(obj);
    expect(funding.map((f) => f.income)).toEqual(['0.06000000']);
  });
});

describe('liquidation', () => {
  it('liquidates an isolated long below its liquidation price and takes exactly its margin', async () => {
    const { client } = await run(
      [
        { fromMinute: -1000, price: 60000 },
        { fromMinute: 5, price: 57300 },
        { fromMinute: 10, price: 57200 },
      ],
      '1000',
    );
    await client.signed('POST', '/fapi/v1/marginType', { symbol: 'BTCUSDT', marginType: 'ISOLATED' });
    await client.signed('POST', '/fapi/v1/order', buy);
    const events: UserEvent[] = [];
    h.sim.exchange.onUserEvent((_id, e) => events.push(e));
    const [pos] = arr((await client.signed('GET', '/fapi/v3/positionRisk')).json).map(obj);
    // Margin 0.010 × 60000.1 / 20 = 30.00005; LP = (30.00005 + 0 − 600.001) / (0.01 × 0.004 − 0.01)
    expect(pos).toMatchObject({ isolatedWallet: '30.00005000', liquidationPrice: '57229.01104418' });
    h.until(minute(5) + 30_000);
    expect(arr((await client.signed('GET', '/fapi/v3/positionRisk')).json)).toHaveLength(1);
    h.until(minute(10) + 2000);
    expect(arr((await client.signed('GET', '/fapi/v3/positionRisk')).json)).toHaveLength(0);
    const orders = arr((await client.signed('GET', '/fapi/v1/allOrders', { symbol: 'BTCUSDT' })).json).map(
      obj,
    );
    const liquidation = orders.find((o) => o.type === 'LIQUIDATION');
    expect(liquidation).toMatchObject({ status: 'FILLED', side: 'SELL', executedQty: '0.010' });
    expect(String(liquidation?.clientOrderId)).toMatch(/^autoclose-/);
    const liquidationEvents = events
      .filter((e) => e.e === 'ORDER_TRADE_UPDATE' && String(e.o.c).startsWith('autoclose-'))
      .map((e) => (e.e === 'ORDER_TRADE_UPDATE' ? [e.o.x, e.o.X, e.o.o] : []));
    expect(liquidationEvents).toEqual([
      ['NEW', 'NEW', 'LIQUIDATION'],
      ['CALCULATED', 'FILLED', 'LIQUIDATION'],
    ]);
    const balance = obj(arr((await client.signed('GET', '/fapi/v3/balance')).json)[0]).balance;
    // 1000 − opening taker fee 0.3000005 − the isolated margin 30.00005
    expect(balance).toBe('969.69994950');
  });

  it('liquidates exactly when the mark crosses the liquidation price the formula gives', async () => {
    // LP 57229.01104418 (see above): one tick above holds, one tick below liquidates
    const { client } = await run(
      [
        { fromMinute: -1000, price: 60000 },
        { fromMinute: 5, price: 57229.1 },
        { fromMinute: 10, price: 57228.9 },
      ],
      '1000',
    );
    await client.signed('POST', '/fapi/v1/marginType', { symbol: 'BTCUSDT', marginType: 'ISOLATED' });
    await client.signed('POST', '/fapi/v1/order', buy);
    h.until(minute(9) + 59_000);
    expect(arr((await client.signed('GET', '/fapi/v3/positionRisk')).json)).toHaveLength(1);
    h.until(minute(10) + 1000);
    expect(arr((await client.signed('GET', '/fapi/v3/positionRisk')).json)).toHaveLength(0);
  });

  it('liquidates a cross position when margin balance meets maintenance margin, never leaving a debt', async () => {
    const { client } = await run(
      [
        { fromMinute: -1000, price: 60000 },
        { fromMinute: 5, price: 57000 },
        { fromMinute: 10, price: 56000 },
      ],
      '40',
    );
    await client.signed('POST', '/fapi/v1/order', buy);
    const [pos] = arr((await client.signed('GET', '/fapi/v3/positionRisk')).json).map(obj);
    // (39.6999995 − 600.001) / (0.01 × 0.004 − 0.01)
    expect(pos?.liquidationPrice).toBe('56255.12053213');
    h.until(minute(5) + 1000);
    expect(arr((await client.signed('GET', '/fapi/v3/positionRisk')).json)).toHaveLength(1);
    h.until(minute(10) + 1000);
    expect(arr((await client.signed('GET', '/fapi/v3/positionRisk')).json)).toHaveLength(0);
    const account = obj((await client.signed('GET', '/fapi/v3/account')).json);
    expect(account.totalWalletBalance).toBe('0.00000000');
  });
});

describe('time', () => {
  it('replays a long jump second by second: a resting order fills at its price even if the market moved on', async () => {
    const { client } = await run(
      [
        { fromMinute: -1000, price: 60000 },
        { fromMinute: 30, price: 58000 },
        { fromMinute: 31, price: 62000 },
      ],
      '1000',
    );
    await client.signed('POST', '/fapi/v1/order', {
      ...buy,
      type: 'LIMIT',
      timeInForce: 'GTC',
      price: '59000.0',
    });
    h.until(T0 + 6 * 3_600_000);
    const trades = arr((await client.signed('GET', '/fapi/v1/userTrades', { symbol: 'BTCUSDT' })).json).map(
      obj,
    );
    expect(trades).toHaveLength(1);
    expect(trades[0]).toMatchObject({ price: '59000.00', maker: true });
    expect(Number(trades[0]?.time)).toBeGreaterThanOrEqual(minute(30));
    expect(Number(trades[0]?.time)).toBeLessThan(minute(31));
  });
});

describe('isolated margin added and taken out (POST /fapi/v1/positionMargin)', () => {
  const margin = (client: Client, type: 1 | 2, amount: string) =>
    client.signed('POST', '/fapi/v1/positionMargin', { symbol: 'BTCUSDT', amount, type });
  const position = async (client: Client) =>
    obj(arr((await client.signed('GET', '/fapi/v3/positionRisk')).json)[0]);

  it('moves margin between the cross wallet and the position, which moves its liquidation price', async () => {
    const { client } = await run([{ fromMinute: -1000, price: 60000 }], '1000');
    await client.signed('POST', '/fapi/v1/marginType', { symbol: 'BTCUSDT', marginType: 'ISOLATED' });
    await client.signed('POST', '/fapi/v1/order', buy);
    const before = await position(client);
    const added = await margin(client, 1, '10');
    expect(added.json).toEqual({
      amount: 10,
      code: 200,
      msg: 'Successfully modify position margin.',
      type: 1,
    });
    const after = await position(client);
    expect(Number(after.isolatedWallet) - Number(before.isolatedWallet)).toBeCloseTo(10, 8);
    // More margin behind a long: it survives a deeper fall
    expect(Number(after.liquidationPrice)).toBeLessThan(Number(before.liquidationPrice));
    const balance = obj(arr((await client.signed('GET', '/fapi/v3/balance')).json)[0]);
    expect(Number(balance.crossWalletBalance)).toBeCloseTo(
      Number(balance.balance) - Number(after.isolatedWallet),
      8,
    );

    // Out again, all but what the position's initial margin (and its loss so far) needs
    expect((await margin(client, 2, '5')).status).toBe(200);
    expect(Number((await position(client)).isolatedWallet)).toBeCloseTo(Number(before.isolatedWallet) + 5, 8);
  });

  it('refuses a cross position, more than is available, and taking out the initial margin', async () => {
    const { client } = await run([{ fromMinute: -1000, price: 60000 }], '100');
    await client.signed('POST', '/fapi/v1/order', buy);
    expect((await margin(client, 1, '1')).json).toMatchObject({ code: -4049 });
    await client.signed('POST', '/fapi/v1/order', { ...buy, side: 'SELL' });
    await client.signed('POST', '/fapi/v1/marginType', { symbol: 'BTCUSDT', marginType: 'ISOLATED' });
    await client.signed('POST', '/fapi/v1/order', buy);
    expect((await margin(client, 1, '1000')).json).toMatchObject({ code: -4050 });
    // 0.010 × 60000 / 20 = 30 USDT of initial margin stays in the position
    expect((await margin(client, 2, '29')).json).toMatchObject({ code: -4051 });
  });
});
