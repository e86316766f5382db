import { FuturesPositionsResponseSchema, OrderPreviewResponseSchema } from '@kestrel/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from './helper';

/**
 * The ticket's estimate before sending, against what the exchange reports once the order has filled: the
 * simulator computes liquidation prices by Binance's formula from its own books, so the two must agree up to the
 * fee the fill takes from the wallet
 */
describe('order preview', () => {
  let t: TestServer;
  let token: string;

  beforeAll(async () => {
    t = await startTestServer({ simulator: { symbols: ['BTCUSDT'] } });
    token = (await t.connectedUser()).auth.access_token;
    t.sim.exchange.setPrice('BTCUSDT', { price: '50000' });
  });
  afterAll(() => t?.close());

  const post = (url: string, payload: object) =>
    t.request({ method: 'POST', url, headers: bearer(token), payload });
  const preview = async (order: object) => {
    const res = await post('/api/futures/orders/preview', order);
    expect(res.statusCode).toBe(200);
    return OrderPreviewResponseSchema.parse(res.json()).data;
  };
  const liquidationOnExchange = async () => {
    const res = await t.request({
      method: 'GET',
      url: '/api/futures/positions/BTCUSDT',
      headers: bearer(token),
    });
    const [p] = FuturesPositionsResponseSchema.parse(res.json()).data.filter((x) => Number(x.amount) !== 0);
    return Number(p?.liquidationPrice);
  };
  const buy = { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.100' } as const;

  it('estimates cost and liquidation of a market entry as the exchange then reports them (cross)', async () => {
    const estimate = await preview(buy);
    expect(estimate).toMatchObject({
      price: '50000',
      notional: '5000',
      initialMargin: '250',
      marginType: 'cross',
      leverage: 20,
      positionAfter: '0.1',
      availableBalance: expect.stringMatching(/^1000/),
    });
    // Nothing was placed
    expect(await liquidationOnExchange()).toBeNaN();
    expect((await post('/api/futures/orders/create', buy)).statusCode).toBe(201);
    const real = await liquidationOnExchange();
    expect(Math.abs(Number(estimate.liquidationPrice) - real) / real).toBeLessThan(0.002);

    // Adding to it: the average entry and the larger position, again as the exchange then says
    const more = await preview({
      ...buy,
      type: 'LIMIT',
      price: '50000',
      timeInForce: 'GTC',
      quantity: '0.050',
    });
    expect(more.positionAfter).toBe('0.15');
    expect((await post('/api/futures/orders/create', { ...buy, quantity: '0.050' })).statusCode).toBe(201);
    const after = await liquidationOnExchange();
    expect(Math.abs(Number(more.liquidationPrice) - after) / after).toBeLessThan(0.002);

    // A reduce-only close of all of it leaves nothing to liquidate
    const close = await preview({ ...buy, side: 'SELL', quantity: '0.150', reduceOnly: true });
    expect(close).toMatchObject({ positionAfter: '0', liquidationPrice: null });
    expect(
      (
        await post('/api/futures/orders/create', {
          ...buy,
          side: 'SELL',
          quantity: '0.150',
          reduceOnly: true,
        })
      ).statusCode,
    ).toBe(201);
  });

  it('isolated: the position stands on its own margin, so it is liquidated far sooner', async () => {
    expect(
      (await post('/api/futures/margin-type', { symbol: 'BTCUSDT', marginType: 'isolated' })).statusCode,
    ).toBe(200);
    const estimate = await preview({ ...buy, side: 'SELL' });
    expect(estimate.marginType).toBe('isolated');
    // A 20x short on its own 250 USDT: liquidated about 5 % above the entry, less the maintenance margin
    expect(Number(estimate.liquidationPrice)).toBeGreaterThan(52000);
    expect(Number(estimate.liquidationPrice)).toBeLessThan(52500);
    expect((await post('/api/futures/orders/create', { ...buy, side: 'SELL' })).statusCode).toBe(201);
    const real = await liquidationOnExchange();
    expect(Math.abs(Number(estimate.liquidationPrice) - real) / real).toBeLessThan(0.002);
  });

  it('says what a preview needs', async () => {
    const res = await post('/api/futures/orders/preview', {
      ...buy,
      type: 'STOP_MARKET',
      triggerPrice: '49000',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe('A preview is of a LIMIT or MARKET order with a quantity');
  });
});
