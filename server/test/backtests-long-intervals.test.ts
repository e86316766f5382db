import {
  BacktestCandlesResponseSchema,
  type BacktestDetail,
  BacktestDetailResponseSchema,
  BacktestSummaryResponseSchema,
} from '@kestrel/contracts/backtest';
import { barsFromKlines, getBuiltInStrategy, type KlineRow, runBacktest } from '@kestrel/engine';
import { ManualClock } from '@kestrel/exchange-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, type Driver, postgresUrl, signUp, startTestServer, type TestServer } from './helper';
import { RecordingAdapter } from './recording-adapter';

/**
 * Backtests on 3d, 1w and 1M bars through the API: the bars the exchange serves at their calendar open times, the
 * kline cache asking only for the months/weeks it lacks, and the engine's figures on the same bars.
 */

// The app's test clock: Thursday 15 January 2026, 12:00 UTC
const NOW = Date.UTC(2026, 0, 15, 12);
const DAY = 86_400_000;
const utc = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d);

const pgUp = (await postgresUrl()) !== undefined;

describe.each<Driver>(['pglite', 'postgres'])('backtests on 3d, 1w and 1M bars on %s', (driver) => {
  describe.skipIf(driver === 'postgres' && !pgUp)('', () => {
    let t: TestServer;
    let url: string;
    let adapter: RecordingAdapter;
    let token: string;

    beforeAll(async () => {
      t = await startTestServer({
        database: driver,
        // History from 29 June 2025: whole months from July
        simulator: { clock: new ManualClock(NOW), historyDays: 200, symbols: ['BTCUSDT'] },
        deps: (simUrl) => {
          adapter = new RecordingAdapter({ restUrl: simUrl });
          return { exchangeAdapter: adapter };
        },
      });
      url = t.simUrl;
      token = (await signUp(t)).access_token;
    }, 60_000);
    afterAll(() => t?.close());

    const post = (payload: object) =>
      t.request({ method: 'POST', url: '/api/v1/backtests', headers: bearer(token), payload });
    const get = (path: string) => t.request({ method: 'GET', url: path, headers: bearer(token) });

    async function run(
      interval: string,
      startTime: number,
      endTime: number,
      strategy = 'ema-cross',
      params: Record<string, unknown> = { fast: 2, slow: 4 },
    ) {
      const created = await post({
        strategy,
        params,
        symbol: 'BTCUSDT',
        interval,
        startTime,
        endTime,
      });
      expect(created.statusCode, created.body).toBe(202);
      const { id } = BacktestSummaryResponseSchema.parse(created.json()).data;
      await t.app.backtestService.idle();
      const detail = BacktestDetailResponseSchema.parse((await get(`/api/v1/backtests/${id}`)).json()).data;
      const candles = BacktestCandlesResponseSchema.parse(
        (await get(`/api/v1/backtests/${id}/candles`)).json(),
      ).data;
      return { detail, candles };
    }

    /** The engine run straight on the exchange's bars and funding rates for the span, with the run's own costs */
    async function direct(interval: string, start: number, end: number, detail: BacktestDetail) {
      const span = `symbol=BTCUSDT&startTime=${start}&endTime=${end - 1}`;
      const raw = (await (
        await fetch(`${url}/fapi/v1/klines?${span}&interval=${interval}&limit=1500`)
      ).json()) as KlineRow[];
      const funding = (await (await fetch(`${url}/fapi/v1/fundingRate?${span}&limit=1000`)).json()) as {
        fundingTime: number;
        fundingRate: string;
      }[];
      const c = detail.request.costs;
      const result = runBacktest(
        getBuiltInStrategy(detail.strategy),
        detail.request.params,
        barsFromKlines(raw, interval),
        {
          broker: {
            initialBalance: c.initialBalance,
            leverage: c.leverage,
            marginMode: c.marginMode,
            makerFee: c.makerFeeRate,
            takerFee: c.takerFeeRate,
            slippageBps: c.slippageBps,
            tickSize: 0.1,
            stepSize: 0.001,
            minNotional: 100,
          },
          fundingRates: {
            time: funding.map((f) => Math.floor(f.fundingTime / 60_000) * 60_000),
            rate: funding.map((f) => Number(f.fundingRate)),
          },
        },
      );
      return { raw, result };
    }

    it('1M: bars open on the 1st of each month, the cache fetches only the months it lacks', async () => {
      const calls = adapter.klineCalls.length;
      // 20 July to 20 November: the bars of August, September, October and November (opened before the end)
      // DCA with a far take-profit: a long bought after the first month and held, so funding is paid
      const dca = { takeProfit: 0.5 };
      const first = await run('1M', utc(2025, 7, 20), utc(2025, 11, 20), 'dca', dca);
      expect(first.detail.status).toBe('completed');
      expect(first.detail.metrics?.bars).toBe(4);
      expect(first.candles.interval).toBe('1M');
      expect(first.candles.candles.map((c) => c.time)).toEqual([
        utc(2025, 8, 1),
        utc(2025, 9, 1),
        utc(2025, 10, 1),
        utc(2025, 11, 1),
      ]);
      expect(adapter.klineCalls.slice(calls)).toEqual([
        { symbol: 'BTCUSDT', interval: '1M', startTime: utc(2025, 8, 1), endTime: utc(2025, 12, 1) - 1 },
      ]);
      const { raw, result } = await direct('1M', utc(2025, 8, 1), utc(2025, 12, 1), first.detail);
      // Each bar closes 1 ms before the next month opens: 31, 30, 31 and 30 days
      expect(raw.map((k) => ((k[6] as number) + 1 - k[0]) / DAY)).toEqual([31, 30, 31, 30]);
      expect(first.detail.metrics).toMatchObject(result.metrics);
      // Funding inside each month settles at the next month's open: September's and October's opens at least
      expect(result.fills.length).toBeGreaterThan(0);
      expect(result.metrics.fundingPaid).not.toBe(0);

      // July to now: the open January bar is left out, and only July and December are asked for
      const wider = await run('1M', utc(2025, 7, 1), NOW, 'dca', dca);
      expect(wider.detail.status).toBe('completed');
      expect(wider.detail.metrics?.bars).toBe(6);
      expect(wider.candles.candles.map((c) => new Date(c.time).toISOString().slice(0, 10))).toEqual([
        '2025-07-01',
        '2025-08-01',
        '2025-09-01',
        '2025-10-01',
        '2025-11-01',
        '2025-12-01',
      ]);
      expect(adapter.klineCalls.slice(calls + 1)).toEqual([
        { symbol: 'BTCUSDT', interval: '1M', startTime: utc(2025, 7, 1), endTime: utc(2025, 8, 1) - 1 },
        { symbol: 'BTCUSDT', interval: '1M', startTime: utc(2025, 12, 1), endTime: utc(2026, 1, 1) - 1 },
      ]);
      expect(wider.detail.metrics).toMatchObject(
        (await direct('1M', utc(2025, 7, 1), utc(2026, 1, 1), wider.detail)).result.metrics,
      );
    });

    it('1w: bars open on Mondays and match the engine on the exchange’s bars; the same range again asks nothing', async () => {
      // Wednesday 1 October 2025 to Wednesday 7 January 2026: Mondays 6 October to 5 January
      const from = utc(2025, 10, 1);
      const to = utc(2026, 1, 7);
      const calls = adapter.klineCalls.length;
      const first = await run('1w', from, to);
      expect(first.detail.status).toBe('completed');
      expect(first.detail.metrics?.bars).toBe(14);
      const times = first.candles.candles.map((c) => c.time);
      expect(times[0]).toBe(utc(2025, 10, 6));
      expect(times.at(-1)).toBe(utc(2026, 1, 5));
      expect(times.every((time) => new Date(time).getUTCDay() === 1)).toBe(true);
      const { result } = await direct('1w', utc(2025, 10, 6), utc(2026, 1, 12), first.detail);
      expect(first.detail.metrics).toMatchObject(result.metrics);
      expect(result.metrics.tradeCount).toBeGreaterThan(0);
      expect(adapter.klineCalls.length).toBe(calls + 1);

      const again = await run('1w', from, to);
      expect(again.detail.metrics).toEqual(first.detail.metrics);
      expect(adapter.klineCalls.length).toBe(calls + 1);
    });

    it('3d: bars open on multiples of 3 days since the epoch', async () => {
      const first = await run('3d', utc(2025, 9, 1), utc(2025, 12, 1));
      expect(first.detail.status).toBe('completed');
      // 1 September 2025 is day 20332 (3 × 6777 + 1): the first bar opens on 3 September, the last on 29 November
      expect(first.detail.metrics?.bars).toBe(30);
      const times = first.candles.candles.map((c) => c.time);
      expect(times[0]).toBe(utc(2025, 9, 3));
      expect(times.at(-1)).toBe(utc(2025, 11, 29));
      expect(times.every((time) => time % (3 * DAY) === 0)).toBe(true);
      const { result } = await direct('3d', utc(2025, 9, 3), utc(2025, 12, 2), first.detail);
      expect(first.detail.metrics).toMatchObject(result.metrics);
    });

    it.each([
      [
        '1w',
        utc(2025, 12, 24),
        utc(2025, 12, 26),
        'Invalid backtest: endTime: the range holds no whole bar of this interval',
      ],
      // January 2026 is still open at the app's clock: February would be the first bar
      [
        '1M',
        utc(2026, 1, 2),
        NOW,
        'Invalid backtest: startTime: the range starts after the last closed bar (now)',
      ],
    ])('refuses a %s range without a closed bar: %s', async (interval, startTime, endTime, message) => {
      const res = await post({ strategy: 'ema-cross', symbol: 'BTCUSDT', interval, startTime, endTime });
      expect(res.statusCode).toBe(400);
      expect((res.json() as { detail: string }).detail).toContain(message);
    });
  });
});
