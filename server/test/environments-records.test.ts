import {
  AnalyticsResponseSchema,
  EquityHistoryResponseSchema,
  HistorySymbolsResponseSchema,
  IncomePageResponseSchema,
  MarketStatusResponseSchema,
  TickerResponseSchema,
  TradeHistoryPageResponseSchema,
} from '@kestrel/contracts';
import { BacktestDetailResponseSchema, BacktestSummaryResponseSchema } from '@kestrel/contracts/backtest';
import { ManualClock, type SimServer } from '@kestrel/exchange-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockReading } from '../src/lib/clock';
import {
  bearer,
  type DemoKeys,
  PASSWORD,
  SIM_START,
  startTestServer,
  storeKeys,
  type TestServer,
} from './helper';
import { listenWs, TestSocket, type WsFrame, wsUrl } from './socket-helper';

const MINUTE = 60_000;

/**
 * Issue 23: after a switch, every page shows the account of the current environment only. Two simulators stand in
 * for testnet (1000 USDT, a BTCUSDT trade) and mainnet (5000 USDT, an ETHUSDT trade); the account recorder records
 * both, each with its own key, and /history, /analytics, the dashboard's equity and income, the income export and
 * the market calls read the current environment's alone
 */
describe('records and market data follow the environment', () => {
  let t: TestServer;
  let simClock: ManualClock;
  let token: string;
  let testnetKeys: DemoKeys;
  let mainnetKeys: DemoKeys;

  beforeAll(async () => {
    simClock = new ManualClock(SIM_START);
    const symbols = ['BTCUSDT', 'ETHUSDT'];
    t = await startTestServer({
      simulator: { clock: simClock, historyDays: 1, symbols },
      mainnet: { clock: simClock, historyDays: 1, symbols },
      deps: { clock: clockReading(() => new Date(simClock.now())) },
    });
    const user = await t.connectedUser();
    token = user.auth.access_token;
    testnetKeys = user.keys;
    mainnetKeys = t.mainnet?.demoKeys({ balances: { USDT: '5000' } }) ?? { apiKey: '', secretKey: '' };
    for (const sim of [t.sim, t.mainnet?.sim]) {
      sim?.exchange.setPrice('BTCUSDT', { price: '50000' });
      sim?.exchange.setPrice('ETHUSDT', { price: '3000' });
    }

    // One trade on each account, then both recorded by one round of the recorder
    expect((await market('BTCUSDT', '0.010')).statusCode).toBe(201);
    expect((await call('POST', '/api/v1/account/step-up', { password: PASSWORD })).statusCode).toBe(200);
    expect((await switchTo('mainnet')).statusCode).toBe(200);
    await storeKeys(t, token, mainnetKeys);
    expect((await market('ETHUSDT', '0.100')).statusCode).toBe(201);
    simClock.advance(MINUTE);
    await t.app.accountRecorder.tick();
    // Apart from here on: the two markets' prices part
    t.mainnet?.sim.exchange.setPrice('BTCUSDT', { price: '30000' });
  }, 120_000);
  afterAll(() => t?.close());

  const call = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
    t.request({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  const switchTo = (environment: 'testnet' | 'mainnet') =>
    call('PUT', '/api/v1/environment', { environment });
  const market = (symbol: string, quantity: string) =>
    call('POST', '/api/futures/orders/create', { symbol, side: 'BUY', type: 'MARKET', quantity });
  const read = async <T>(url: string, schema: { parse(v: unknown): { data: T } }): Promise<T> => {
    const res = await call('GET', url);
    expect(res.statusCode, res.body).toBe(200);
    return schema.parse(res.json()).data;
  };

  /** What every page says about the account it shows */
  async function pages() {
    const trades = await read('/api/v1/dashboard/history/trades', TradeHistoryPageResponseSchema);
    const analytics = await read('/api/v1/dashboard/analytics?from=0', AnalyticsResponseSchema);
    const equity = await read('/api/v1/dashboard/equity', EquityHistoryResponseSchema);
    const income = await read('/api/v1/dashboard/income', IncomePageResponseSchema);
    const csv = await call('GET', '/api/v1/dashboard/history/income/export');
    expect(csv.statusCode, csv.body).toBe(200);
    return {
      tradeSymbols: [...new Set(trades.items.map((x) => x.symbol))],
      historySymbols: await read('/api/v1/dashboard/history/symbols', HistorySymbolsResponseSchema),
      analyticsSymbols: analytics.symbols.map((s) => s.symbol),
      transfers: Number(analytics.totals.transfers),
      analyticsEquity: [...new Set(analytics.equity.map((p) => Math.round(Number(p.equity) / 1000)))],
      equity: [...new Set(equity.points.map((p) => Math.round(Number(p.walletBalance) / 1000)))],
      deposits: income.items.filter((i) => i.incomeType === 'TRANSFER').map((i) => Number(i.income)),
      csvDeposits: csv.body
        .split('\r\n')
        .filter((line) => line.includes(',TRANSFER,'))
        .map((line) => Number(line.split(',')[3])),
      ticker: Number((await read('/api/v1/market/ticker/BTCUSDT', TickerResponseSchema)).lastPrice),
      status: (await read('/api/v1/market/status', MarketStatusResponseSchema)).environment,
    };
  }

  it('on mainnet: only the mainnet account and mainnet prices', async () => {
    expect(await pages()).toEqual({
      tradeSymbols: ['ETHUSDT'],
      historySymbols: ['ETHUSDT'],
      analyticsSymbols: ['ETHUSDT'],
      transfers: 5000,
      analyticsEquity: [5],
      equity: [5],
      deposits: [5000],
      csvDeposits: [5000],
      ticker: 30000,
      status: 'mainnet',
    });
  });

  it('on mainnet: a backtest reads mainnet’s candles and funding, and keeps them under mainnet’s name', async () => {
    /** How many requests to a path reach a simulator from now on (a counted, harmless fault rule) */
    const counter = (sim: SimServer | undefined, path: string) => {
      const rule = sim?.faults.add({ kind: 'latency', ms: 1, path, remaining: 1_000_000 });
      return () => 1_000_000 - (sim?.faults.list().find((r) => r.id === rule?.id)?.remaining ?? 1_000_000);
    };
    const klines = {
      testnet: counter(t.sim, '/fapi/v1/klines'),
      mainnet: counter(t.mainnet?.sim, '/fapi/v1/klines'),
    };
    const created = await call('POST', '/api/v1/backtests', {
      strategy: 'ema-cross',
      params: { fast: 5, slow: 20 },
      symbol: 'ETHUSDT',
      interval: '1m',
      startTime: SIM_START - 5 * 3_600_000,
      endTime: SIM_START - 3 * 3_600_000,
    });
    expect(created.statusCode, created.body).toBe(202);
    const { id } = BacktestSummaryResponseSchema.parse(created.json()).data;
    await t.app.backtestService.idle();
    const run = await read(`/api/v1/backtests/${id}`, BacktestDetailResponseSchema);
    expect(run.status).toBe('completed');
    expect(run.bracketsSource).toBe('exchange');
    expect(klines.mainnet()).toBeGreaterThan(0);
    expect(klines.testnet()).toBe(0);
    const [row] = await t.database.db.query('SELECT exchange_env FROM backtests WHERE id = $1', [id]);
    expect(row?.exchange_env).toBe('mainnet');
  });

  it('back on testnet: only the testnet account and testnet prices', async () => {
    expect((await switchTo('testnet')).statusCode).toBe(200);
    expect(await pages()).toEqual({
      tradeSymbols: ['BTCUSDT'],
      historySymbols: ['BTCUSDT'],
      analyticsSymbols: ['BTCUSDT'],
      transfers: 1000,
      analyticsEquity: [1],
      equity: [1],
      deposits: [1000],
      csvDeposits: [1000],
      ticker: 50000,
      status: 'simulator',
    });
  });

  it('live pushes: a socket on mainnet gets mainnet’s prices, one on testnet testnet’s; the socket tool tests testnet keys on testnet', async () => {
    const base = await listenWs(t);
    const other = await t.connectedUser();
    expect((await call('POST', '/api/v1/account/step-up', { password: PASSWORD })).statusCode).toBe(200);
    expect((await switchTo('mainnet')).statusCode).toBe(200);
    const onMainnet = await TestSocket.open(wsUrl(base, token, 'mainnet-tab'));
    const onTestnet = await TestSocket.open(wsUrl(base, other.auth.access_token, 'testnet-tab'));
    try {
      await onMainnet.request('tools/list');
      await onTestnet.request('tools/list');
      const ticker = (f: WsFrame) => f.method === 'notifications/ticker' && f.params?.symbol === 'BTCUSDT';
      const both = Promise.all([onMainnet.next(ticker), onTestnet.next(ticker)]);
      let settled = false;
      void both.finally(() => {
        settled = true;
      });
      while (!settled) {
        simClock.advance(1000);
        t.sim.tick();
        t.mainnet?.sim.tick();
        await new Promise((r) => setTimeout(r, 10));
      }
      const [mainnetPush, testnetPush] = await both;
      expect(Math.abs(Number(mainnetPush.params?.lastPrice) - 30_000)).toBeLessThan(300);
      expect(Math.abs(Number(testnetPush.params?.lastPrice) - 50_000)).toBeLessThan(500);
      // Neither socket ever got the other market's BTCUSDT price
      const prices = (sock: TestSocket) => sock.frames.filter(ticker).map((f) => Number(f.params?.lastPrice));
      expect(prices(onMainnet).every((p) => p < 40_000)).toBe(true);
      expect(prices(onTestnet).every((p) => p > 40_000)).toBe(true);

      // On mainnet, `testnet: true` tests testnet keys on the testnet host; without it, the current (mainnet) one
      expect(
        await onMainnet.tool('test_binance_connection', {
          api_key: testnetKeys.apiKey,
          secret_key: testnetKeys.secretKey,
          testnet: true,
        }),
      ).toMatchObject({ success: true });
      expect(
        await onMainnet.tool('test_binance_connection', {
          api_key: mainnetKeys.apiKey,
          secret_key: mainnetKeys.secretKey,
        }),
      ).toMatchObject({ success: true });
    } finally {
      await onMainnet.close();
      await onTestnet.close();
    }
  });

  it('recorded each account with its own key: no key ever reached the other environment’s host', () => {
    expect(t.sim.apiKeysSeen.has(mainnetKeys.apiKey)).toBe(false);
    expect(t.mainnet?.sim.apiKeysSeen.has(testnetKeys.apiKey)).toBe(false);
    expect(t.mainnet?.sim.apiKeysSeen.has(mainnetKeys.apiKey)).toBe(true);
  });
});
