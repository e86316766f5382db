import { randomUUID } from 'node:crypto';
import { AnalyticsResponseSchema, ErrorResponseSchema, type IncomeEntry } from '@kestrel/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { BinanceUsdmAdapter } from '../src/core/exchange/binance-adapter';
import { recorderRepository } from '../src/core/recorder/recorder-repository';
import { botRepository } from '../src/trading/bots/bot-repository';
import { ANALYTICS_FRESH_MS } from '../src/views/analytics/analytics-service';
import { bearer, SIM_START, signUp, useTestServer } from './helper';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Four UTC days before the simulator's start */
const D0 = Date.UTC(2026, 0, 10);
const D1 = D0 + DAY;
const D2 = D1 + DAY;
const D3 = D2 + DAY;
const D4 = D3 + DAY;

/** The real adapter, counting income reads */
class CountingAdapter extends BinanceUsdmAdapter {
  incomeCalls = 0;
  override async income(...args: Parameters<BinanceUsdmAdapter['income']>) {
    this.incomeCalls += 1;
    return super.income(...args);
  }
}

/**
 * GET /api/v1/dashboard/analytics on the real app and PGlite: rows stored through the recorder's repository, every
 * figure checked against values worked out by hand below; then the figures after real trades on the simulator
 */
describe('account analytics', () => {
  let token: string;
  let userId: string;
  let adapter: CountingAdapter;

  const t = useTestServer({
    simulator: { symbols: ['BTCUSDT', 'ETHUSDT'] },
    deps: (simUrl) => {
      adapter = new CountingAdapter({ restUrl: simUrl });
      return { exchangeAdapter: adapter };
    },
  });
  beforeAll(async () => {
    const user = await signUp(t);
    token = user.access_token;
    userId = user.user.id;
  });

  const get = (path: string, auth = token) => t.request({ method: 'GET', url: path, headers: bearer(auth) });
  const analytics = async (query: string, auth = token) => {
    const res = await get(`/api/v1/dashboard/analytics${query}`, auth);
    expect(res.statusCode, res.body).toBe(200);
    return AnalyticsResponseSchema.parse(res.json()).data;
  };
  const snapshot = (minute: number, equity: string) =>
    recorderRepository.insertSnapshot(t.database.db, {
      user_id: userId,
      environment: 'testnet',
      minute,
      taken_at: minute,
      wallet_balance: equity,
      unrealized_pnl: '0',
      margin_balance: equity,
      maintenance_margin: '0',
    });
  let tranId = 1;
  const entry = (time: number, incomeType: string, income: string, symbol = ''): IncomeEntry => ({
    tranId: String(tranId++),
    incomeType,
    income,
    symbol,
    asset: 'USDT',
    info: '',
    tradeId: '',
    time,
  });

  describe('on stored rows', () => {
    beforeAll(async () => {
      // Equity: a peak of 1100 on D0, a trough of 990 on D1 (the deepest fall: 110, 10 %), a new high on D2
      for (const [minute, equity] of [
        [D0, '1000'],
        [D0 + 12 * HOUR, '1100'],
        [D1, '1050'],
        [D1 + 6 * HOUR, '990'],
        [D1 + 6 * HOUR + MINUTE, '995'],
        [D2, '1010'],
        [D2 + 12 * HOUR, '1200'],
      ] as const)
        await snapshot(minute, equity);
      await recorderRepository.insertIncome(t.database.db, { userId, environment: 'testnet' }, [
        entry(D0 + 10 * HOUR, 'REALIZED_PNL', '100', 'BTCUSDT'),
        entry(D0 + 10 * HOUR, 'COMMISSION', '-2', 'BTCUSDT'),
        // A deposit: in no return, no PnL
        entry(D0 + 11 * HOUR, 'TRANSFER', '500'),
        entry(D1 + 3 * HOUR, 'REALIZED_PNL', '-40', 'ETHUSDT'),
        entry(D1 + 3 * HOUR, 'COMMISSION', '-1', 'ETHUSDT'),
        entry(D1 + 3 * HOUR, 'FUNDING_FEE', '-0.5', 'ETHUSDT'),
        // An opening fill books a zero: not a closing fill
        entry(D1 + 4 * HOUR, 'REALIZED_PNL', '0', 'BTCUSDT'),
        entry(D2 + 5 * HOUR, 'REALIZED_PNL', '30', 'BTCUSDT'),
        entry(D2 + 5 * HOUR, 'COMMISSION', '-1.5', 'BTCUSDT'),
        entry(D2 + 6 * HOUR, 'INSURANCE_CLEAR', '-3.5', 'BTCUSDT'),
        // D3 has no snapshot: its start equity is D2's last (1200)
        entry(D3 + 2 * HOUR, 'FUNDING_FEE', '0.25', 'BTCUSDT'),
      ]);
    });

    it('every figure of four days, worked out by hand', async () => {
      const a = await analytics(`?from=${D0}&to=${D4 - 1}`);
      expect(a).toMatchObject({ from: D0, to: D4 - 1, syncedTo: null });
      // 4 days = 5760 minutes in at most 1000 buckets: 6 minutes each, from D0
      expect(a.bucketMs).toBe(6 * MINUTE);
      // 06:00 and 06:01 of D1 share a bucket: its last equity, its low and its deepest fall are kept
      expect(a.equity).toEqual([
        { time: D0, equity: '1000', equityLow: '1000', drawdown: '0', drawdownRatio: '0.0000' },
        { time: D0 + 12 * HOUR, equity: '1100', equityLow: '1100', drawdown: '0', drawdownRatio: '0.0000' },
        { time: D1, equity: '1050', equityLow: '1050', drawdown: '50', drawdownRatio: '0.0455' },
        {
          time: D1 + 6 * HOUR + MINUTE,
          equity: '995',
          equityLow: '990',
          drawdown: '110',
          drawdownRatio: '0.1000',
        },
        { time: D2, equity: '1010', equityLow: '1010', drawdown: '90', drawdownRatio: '0.0818' },
        { time: D2 + 12 * HOUR, equity: '1200', equityLow: '1200', drawdown: '0', drawdownRatio: '0.0000' },
      ]);
      expect(a.maxDrawdown).toEqual({ amount: '110', ratio: '0.1000' });

      const day = (d: (typeof a.daily)[number]) => [
        d.day,
        d.realizedPnl,
        d.commission,
        d.fundingFee,
        d.other,
        d.net,
        d.startEquity,
        d.return,
      ];
      expect(a.daily.map(day)).toEqual([
        // 98 / 1000
        [D0, '100', '-2', '0', '0', '98', '1000', '0.0980'],
        // -41.5 / 1050 = -0.03952…
        [D1, '-40', '-1', '-0.5', '0', '-41.5', '1050', '-0.0395'],
        // 25 / 1010 = 0.02475…
        [D2, '30', '-1.5', '0', '-3.5', '25', '1010', '0.0248'],
        // 0.25 / 1200 = 0.00020…
        [D3, '0', '0', '0.25', '0', '0.25', '1200', '0.0002'],
      ]);

      expect(a.symbols).toEqual([
        {
          symbol: 'BTCUSDT',
          realizedPnl: '130',
          commission: '-3.5',
          fundingFee: '0.25',
          other: '-3.5',
          net: '123.25',
          closingFills: 2,
          wins: 2,
          winRate: '1.0000',
        },
        {
          symbol: 'ETHUSDT',
          realizedPnl: '-40',
          commission: '-1',
          fundingFee: '-0.5',
          other: '0',
          net: '-41.5',
          closingFills: 1,
          wins: 0,
          winRate: '0.0000',
        },
      ]);
      expect(a.totals).toEqual({
        realizedPnl: '90',
        commission: '-4.5',
        fundingFee: '-0.25',
        other: '-3.5',
        net: '81.75',
        transfers: '500',
        closingFills: 3,
        wins: 2,
        // 2 / 3
        winRate: '0.6667',
        grossProfit: '130',
        grossLoss: '40',
        // 130 / 40
        profitFactor: '3.2500',
      });
      // Returns r = [0.098, -0.0395238, 0.0247525, 0.000208333]: mean 0.0208593, sample sd 0.0578431,
      // Sharpe = 0.0208593 / 0.0578431 × √365 = 6.8893; downside = √(0.0395238² / 4) = 0.0197619,
      // Sortino = 0.0208593 / 0.0197619 × √365 = 20.1658
      expect(a.ratios).toEqual({ sharpe: '6.8893', sortino: '20.1658', days: 4 });
    });

    it('one day: no Sharpe or Sortino; the drawdown runs from the range’s own peak', async () => {
      const a = await analytics(`?from=${D1}&to=${D2 - 1}`);
      expect(a.ratios).toEqual({ sharpe: null, sortino: null, days: 1 });
      // Peak 1050 at D1 00:00, trough 990
      expect(a.maxDrawdown).toEqual({ amount: '60', ratio: '0.0571' });
      // Nothing won, something lost: a profit factor of 0 (none at all only without a losing fill)
      expect(a.totals).toMatchObject({ closingFills: 1, wins: 0, winRate: '0.0000', profitFactor: '0.0000' });
    });

    it('"all" (from 0) starts at the first record', async () => {
      const a = await analytics(`?from=0&to=${D4 - 1}`);
      expect(a.from).toBe(D0);
      expect(a.daily.map((d) => d.day)).toEqual([D0, D1, D2, D3]);
    });

    it("per bot: each bot's fills in the range from its log, realized PnL, fees, closing fills and win rate", async () => {
      const bot = async (name: string, mode: 'paper' | 'live', symbol: string) => {
        const id = randomUUID();
        await botRepository.insert(t.database.db, {
          id,
          user_id: userId,
          kind: 'bot',
          environment: 'testnet',
          name,
          strategy: 'ema-cross',
          params: {},
          symbol,
          interval: '1h',
          leverage: 2,
          budget: 1000,
          mode,
          risk_limits: { maxNotional: null, dailyLossLimit: null, maxDrawdownPercent: null },
          created_at: new Date(D0),
        });
        return id;
      };
      const filled = (botId: string, at: number, data: Record<string, unknown>) =>
        botRepository.insertEvent(t.database.db, {
          id: randomUUID(),
          bot_id: botId,
          user_id: userId,
          kind: 'order_filled',
          message: 'Filled',
          data: { barTime: at, side: 'BUY', quantity: 0.01, price: 100, ...data },
          created_at: new Date(at),
        });
      const paper = await bot('Paper grid', 'paper', 'BTCUSDT');
      const live = await bot('Live trend', 'live', 'ETHUSDT');
      const idle = await bot('Idle', 'paper', 'BTCUSDT');
      // Paper: an opening fill (0), a win of 12.5 and a loss of 2.25, fees 0.1 each; the last one after the range
      await filled(paper, D1 + HOUR, { realizedPnl: 0, fee: 0.1 });
      await filled(paper, D1 + 2 * HOUR, { realizedPnl: 12.5, fee: 0.1 });
      await filled(paper, D1 + 3 * HOUR, { realizedPnl: -2.25, fee: 0.1 });
      await filled(paper, D2 + HOUR, { realizedPnl: 100, fee: 0.1 });
      // Live fills carry no fee (yet)
      await filled(live, D1 + 4 * HOUR, { realizedPnl: -1 });
      // A log line that is not a fill counts for nothing
      await botRepository.insertEvent(t.database.db, {
        id: randomUUID(),
        bot_id: idle,
        user_id: userId,
        kind: 'signal',
        message: 'Signal',
        data: { realizedPnl: 5 },
        created_at: new Date(D1 + HOUR),
      });

      const a = await analytics(`?from=${D1}&to=${D2 - 1}`);
      expect(a.bots).toEqual([
        {
          botId: paper,
          name: 'Paper grid',
          symbol: 'BTCUSDT',
          mode: 'paper',
          fills: 3,
          realizedPnl: '10.25',
          commission: '-0.3',
          net: '9.95',
          closingFills: 2,
          wins: 1,
          winRate: '0.5000',
        },
        {
          botId: live,
          name: 'Live trend',
          symbol: 'ETHUSDT',
          mode: 'live',
          fills: 1,
          realizedPnl: '-1',
          commission: '0',
          net: '-1',
          closingFills: 1,
          wins: 0,
          winRate: '0.0000',
        },
      ]);
      // Another user sees none of them
      const stranger = await signUp(t);
      expect((await analytics(`?from=${D1}&to=${D2 - 1}`, stranger.access_token)).bots).toEqual([]);
    });

    it('an account with nothing recorded: empty series, no ratios', async () => {
      const stranger = await signUp(t);
      const a = await analytics(`?from=${D0}&to=${D4 - 1}`, stranger.access_token);
      expect(a).toMatchObject({
        equity: [],
        maxDrawdown: null,
        daily: [],
        symbols: [],
        bots: [],
        ratios: { sharpe: null, sortino: null, days: 0 },
        totals: { net: '0', closingFills: 0, winRate: null, profitFactor: null },
      });
    });

    it('needs a signed-in user and a sound range', async () => {
      expect((await t.request({ method: 'GET', url: '/api/v1/dashboard/analytics' })).statusCode).toBe(401);
      const bad = await get(`/api/v1/dashboard/analytics?from=${D1}&to=${D0}`);
      expect(bad.statusCode).toBe(400);
      expect(ErrorResponseSchema.parse(bad.json()).message).toContain('from must not be after to');
    });
  });

  it('after real trades on the simulator: the realized PnL, fees and fills the exchange booked', async () => {
    const user = await t.connectedUser();
    const auth = user.auth.access_token;
    const id = user.auth.user.id;
    // The first import (the deposit) and the first snapshot
    await t.app.accountRecorder.tick();
    const trade = (side: 'BUY' | 'SELL') =>
      t.app.futuresService.placeOrder(
        { userId: id, environment: 'testnet' },
        { symbol: 'BTCUSDT', side, type: 'MARKET', quantity: '0.010' },
      );
    t.sim.exchange.setPrice('BTCUSDT', { price: '50000.00' });
    await trade('BUY');
    t.sim.exchange.setPrice('BTCUSDT', { price: '51000.00' });
    await trade('SELL');
    // Older than ANALYTICS_FRESH_MS: reading the figures imports the new income first
    t.clock.advance(20_000);
    const a = await analytics(`?from=${SIM_START - DAY}&to=${SIM_START + DAY}`, auth);
    const booked = t.sim.exchange.accountByKey(user.keys.apiKey)?.income ?? [];
    const sum = (type: string) =>
      booked.filter((i) => i.incomeType === type).reduce((s, i) => s + Number(i.income), 0);
    // Bought at the ask and sold at the bid around 50000 and 51000: about +10 USDT on 0.01 BTC
    expect(Number(a.totals.realizedPnl)).toBeCloseTo(sum('REALIZED_PNL'), 8);
    expect(Number(a.totals.realizedPnl)).toBeGreaterThan(9);
    expect(Number(a.totals.commission)).toBeCloseTo(sum('COMMISSION'), 8);
    expect(Number(a.totals.commission)).toBeLessThan(0);
    expect(Number(a.totals.transfers)).toBe(1000);
    expect(a.totals).toMatchObject({ closingFills: 1, wins: 1, winRate: '1.0000', profitFactor: null });
    expect(a.symbols.map((s) => [s.symbol, s.closingFills, s.realizedPnl])).toEqual([
      ['BTCUSDT', 1, a.totals.realizedPnl],
    ]);
    expect(a.daily.map((d) => [d.day, d.net])).toEqual([[Date.UTC(2026, 0, 15), a.totals.net]]);
    expect(a.equity.length).toBeGreaterThan(0);
    expect(Number(a.equity[0]?.equity)).toBe(1000);

    // Just imported: readers at once make no income call; once stale, two readers at once share one
    const range = `?from=${SIM_START - DAY}&to=${SIM_START + DAY}`;
    const calls = adapter.incomeCalls;
    await Promise.all([analytics(range, auth), analytics(range, auth)]);
    expect(adapter.incomeCalls).toBe(calls);
    t.clock.advance(ANALYTICS_FRESH_MS + 1);
    await Promise.all([analytics(range, auth), analytics(range, auth)]);
    expect(adapter.incomeCalls).toBe(calls + 1);
  });
});
