import { USDMClient, WebsocketClient } from 'binance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimServer } from '../http/server';
import type { Account } from '../matching/types';

// The `binance` npm package (the adapter's planned base) pointed at the simulator, unchanged but for its base URL.
// The simulator runs on the wall clock here because the client stamps requests with Date.now().
let sim: SimServer;
let client: USDMClient;
let account: Account;
beforeAll(async () => {
  sim = new SimServer({ historyDays: 2, symbols: ['BTCUSDT', 'ETHUSDT'], firstOrderId: 1000n, tickMs: 0 });
  const { url } = await sim.listen(0);
  account = sim.exchange.createAccount({ balances: { USDT: '10000' } });
  client = new USDMClient({
    api_key: account.apiKey,
    api_secret: account.secretKey,
    baseUrl: url,
    disableTimeSync: true,
  });
});
afterAll(() => sim.close());

describe('the binance npm client against the simulator', () => {
  it('reads market data', async () => {
    const info = await client.getExchangeInfo();
    expect(info.symbols.map((s) => s.symbol)).toEqual(['BTCUSDT', 'ETHUSDT']);
    const klines = await client.getKlines({ symbol: 'BTCUSDT', interval: '1h', limit: 24 });
    expect(klines).toHaveLength(24);
    expect(Math.abs((await client.getServerTime()) - Date.now())).toBeLessThan(5000);
  });

  it('trades and reads the account back', async () => {
    await client.setLeverage({ symbol: 'ETHUSDT', leverage: 5 });
    const order = await client.submitNewOrder({
      symbol: 'ETHUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: 0.5,
      newOrderRespType: 'RESULT',
    });
    expect(order.status).toBe('FILLED');
    const [position] = await client.getPositionsV3({ symbol: 'ETHUSDT' });
    expect(Number(position?.positionAmt)).toBe(0.5);
    const accountInfo = await client.getAccountInformationV3();
    // 0.5 ETH at 5x: position margin is a fifth of the notional
    expect(Number(accountInfo.totalPositionInitialMargin)).toBeCloseTo(
      Math.abs(Number(position?.notional)) / 5,
      6,
    );
    const trades = await client.getAccountTrades({ symbol: 'ETHUSDT' });
    expect(trades).toHaveLength(1);
    const { listenKey } = await client.getFuturesUserDataListenKey();
    expect(listenKey).toHaveLength(64);
  });

  it('surfaces Binance errors with code and message', async () => {
    await expect(
      client.submitNewOrder({
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'LIMIT',
        timeInForce: 'GTC',
        quantity: 0.001,
        price: 50000,
      }),
    ).rejects.toMatchObject({
      code: -4164,
      message: "Order's notional must be no smaller than 100 (unless you choose reduce only).",
    });
  });
});

describe('the binance npm WebSocket client against the simulator', () => {
  it('receives klines from the routed market stream and order updates from the user stream', async () => {
    const live = new SimServer({ historyDays: 1, symbols: ['BTCUSDT'], tickMs: 200 });
    const { url, wsUrl } = await live.listen(0);
    const trader = live.exchange.createAccount({ balances: { USDT: '10000' } });
    const ws = new WebsocketClient({
      api_key: trader.apiKey,
      api_secret: trader.secretKey,
      wsUrl,
      restOptions: { baseUrl: url },
    });
    try {
      const kline = new Promise<unknown>((resolve) => {
        ws.on('message', (m: unknown) => {
          if (JSON.stringify(m).includes('"e":"kline"')) resolve(m);
        });
      });
      ws.subscribeKlines('BTCUSDT', '1m', 'usdm');
      expect(JSON.stringify(await kline)).toContain('"s":"BTCUSDT"');

      const update = new Promise<unknown>((resolve) => {
        ws.on('message', (m: unknown) => {
          if (JSON.stringify(m).includes('ORDER_TRADE_UPDATE')) resolve(m);
        });
      });
      const opened = new Promise<void>((resolve) => ws.on('open', () => resolve()));
      await ws.subscribeUsdFuturesUserDataStream();
      await opened;
      const rest = new USDMClient({
        api_key: trader.apiKey,
        api_secret: trader.secretKey,
        baseUrl: url,
        disableTimeSync: true,
      });
      await rest.submitNewOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: 0.01 });
      expect(JSON.stringify(await update)).toContain('"s":"BTCUSDT"');
    } finally {
      ws.closeAll(true);
      await live.close();
    }
  }, 20_000);
});
