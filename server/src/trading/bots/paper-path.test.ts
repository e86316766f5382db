import {
  BarSeries,
  type BrokerSettingsInput,
  dcaStrategy,
  gridStrategy,
  resolveBrokerConfig,
  runBacktest,
  type StrategyType,
} from '@kestrel/engine';
import { describe, expect, it } from 'vitest';
import type { BotBar, BotLogEntry } from './bot-step';
import { PaperAccount, type PaperPath } from './paper-account';

const MINUTE = 60_000;
const broker: BrokerSettingsInput = {
  initialBalance: 10_000,
  leverage: 3,
  tickSize: 0.1,
  stepSize: 0.001,
  minNotional: 5,
  slippageBps: 2,
  fundingRate: 0,
};

/** A recorded market: trades on a seeded random walk, one bar a minute, `perBar` trades in each */
function recordedMarket(seed: number, bars: number, perBar: number) {
  let x = seed;
  const random = () => {
    x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
    return x / 2_147_483_648;
  };
  let price = 50_000;
  const out: { bar: BotBar; trades: number[] }[] = [];
  for (let b = 0; b < bars; b++) {
    const trades: number[] = [];
    for (let t = 0; t < perBar; t++) {
      price = Math.round(price * (1 + (random() - 0.5) * 0.004) * 10) / 10;
      trades.push(price);
    }
    const open = trades[0] as number;
    out.push({
      bar: {
        openTime: b * MINUTE,
        open,
        high: Math.max(...trades),
        low: Math.min(...trades),
        close: trades.at(-1) as number,
        volume: 10 * perBar,
      },
      trades: trades.slice(1),
    });
  }
  return out;
}

const limits = { maxNotional: null, dailyLossLimit: null, maxDrawdownPercent: null };
const newAccount = (type: StrategyType, params: Record<string, unknown>) =>
  new PaperAccount(type, type.parseParams(params), MINUTE, resolveBrokerConfig({ broker }), {
    limits,
    origin: 'bot',
  });

const fillsOf = (log: BotLogEntry[]) =>
  log
    .filter((e) => e.kind === 'order_filled')
    .map((e) => [e.data.side, e.data.quantity, e.data.price, e.data.barTime]);

/**
 * A paper bot on live prices: the first bar traded at its close, then every bar walked on forming candles (each
 * `every`-th trade, with the bar's range and last price so far, as the kline stream gives them), then closed.
 * Returns every fill it logged and the paths it kept
 */
function paperLive(
  type: StrategyType,
  params: Record<string, unknown>,
  market: ReturnType<typeof recordedMarket>,
  every: number,
) {
  const account = newAccount(type, params);
  const log: BotLogEntry[] = [];
  const kept = new Map<number, PaperPath>();
  const [first, ...rest] = market;
  log.push(...account.trade((first as (typeof market)[number]).bar).log);
  for (const { bar, trades } of rest) {
    let high = bar.open;
    let low = bar.open;
    trades.forEach((price, k) => {
      high = Math.max(high, price);
      low = Math.min(low, price);
      if (k % every !== every - 1) return;
      const outcome = account.tick({ openTime: bar.openTime, open: bar.open, high, low, close: price });
      if (!outcome) return;
      log.push(...outcome.log);
      if (outcome.path) kept.set(bar.openTime, outcome.path);
    });
    log.push(...account.trade(bar).log);
  }
  return { log, kept, figures: account.figures() };
}

const cases: [string, StrategyType, Record<string, unknown>][] = [
  [
    'a neutral grid',
    gridStrategy,
    { lower: 49_000, upper: 51_000, gridCount: 40, quantityPerGrid: 0.01, leverage: 3, stopOutsidePct: 0.01 },
  ],
  [
    'DCA with a trailing take-profit',
    dcaStrategy,
    {
      baseOrderSize: 300,
      safetyOrderSize: 300,
      safetyOrderCount: 3,
      priceDeviation: 0.002,
      takeProfit: 0.002,
      trailingDeviation: 0.001,
      leverage: 3,
    },
  ],
];

describe('a paper bot on live prices trades as the backtest of the same recorded market', () => {
  for (const [name, type, params] of cases) {
    it(`${name}: every price walked gives the backtest's fills along the recorded trades`, () => {
      const market = recordedMarket(7, 30, 40);
      const series = new BarSeries(MINUTE, market.length);
      for (const { bar } of market)
        series.append(bar.openTime, bar.open, bar.high, bar.low, bar.close, bar.volume);
      const paths = new Map(market.map(({ trades }, i) => [i, trades] as const).filter(([i]) => i > 0));
      const backtest = runBacktest(type, params, series, { broker }, { paths });
      const paper = paperLive(type, params, market, 1);

      const expected = backtest.fills.map((f) => [f.side, f.quantity, f.price, f.time]);
      expect(expected.length).toBeGreaterThan(10);
      expect(fillsOf(paper.log)).toEqual(expected);
      // The backtest along the usual open → low/high → close path would have traded otherwise
      const usual = runBacktest(type, params, series, { broker });
      expect(usual.fills.map((f) => [f.side, f.quantity, f.price, f.time])).not.toEqual(expected);
    });

    it(`${name}: a restart replays the kept points and stands where the live walk stood`, () => {
      const market = recordedMarket(11, 30, 40);
      // Prices as a busy stream gives them: one in three, each with the bar's range so far
      const live = paperLive(type, params, market, 3);
      expect(live.kept.size).toBeGreaterThan(3);

      const replay = newAccount(type, params);
      const log: BotLogEntry[] = [];
      for (const { bar } of market)
        log.push(...replay.trade(bar, undefined, live.kept.get(bar.openTime)).log);
      // The points' own lines were logged when they happened: the replay's are the closes' only
      const atCloses = live.log.filter((e) => e.data.pathPoint === undefined);
      expect(fillsOf(log)).toEqual(fillsOf(atCloses));
      expect(replay.figures()).toEqual(live.figures);
    });
  }

  it('a restart inside a walked bar walks its points again and goes on from there', () => {
    const [, type, params] = cases[0] as (typeof cases)[number];
    const market = recordedMarket(3, 4, 60);
    const live = paperLive(type, params, market, 2);
    // The restart came in the last bar: the bars before are replayed, the last one resumed from its kept path
    const last = market.at(-1) as (typeof market)[number];
    const kept = live.kept.get(last.bar.openTime) as PaperPath;
    expect(kept.points.length).toBeGreaterThan(0);
    const resumed = newAccount(type, params);
    for (const { bar } of market.slice(0, -1)) resumed.trade(bar, undefined, live.kept.get(bar.openTime));
    resumed.resumeForming(last.bar.openTime, kept);
    resumed.trade(last.bar);
    expect(resumed.figures()).toEqual(live.figures);
  });
});
