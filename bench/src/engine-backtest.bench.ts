/**
 * Engine backtest speed: the EMA-crossover, grid and DCA strategies over ≥ 5 M seeded 1m bars, as bars/s and as a
 * ratio to a bare Float64Array EMA-crossover loop (the physical reference) timed in the same run.
 */
import {
  type BarSeries,
  dcaStrategy,
  emaCrossStrategy,
  generateBars,
  gridStrategy,
  runBacktest,
  type StrategyType,
} from '@kestrel/engine';

const BARS = Number(process.env.ENGINE_BENCH_BARS ?? 5_000_000);
const ROUNDS = 3;

/** The reference: EMA(12)/EMA(26) crossover, always in the market, PnL in price units; nothing else */
function referenceLoop(close: Float64Array, n: number): number {
  const kf = 2 / 13;
  const ks = 2 / 27;
  let ef = close[0] as number;
  let es = ef;
  let prev = 0;
  let pos = 0;
  let entry = 0;
  let pnl = 0;
  for (let i = 0; i < n; i++) {
    const c = close[i] as number;
    ef += (c - ef) * kf;
    es += (c - es) * ks;
    const diff = ef - es;
    if (prev <= 0 && diff > 0) {
      if (pos < 0) pnl += entry - c;
      pos = 1;
      entry = c;
    } else if (prev >= 0 && diff < 0) {
      if (pos > 0) pnl += c - entry;
      pos = -1;
      entry = c;
    }
    prev = diff;
  }
  return pnl;
}

function best(fn: () => void): number {
  let min = Number.POSITIVE_INFINITY;
  for (let r = 0; r < ROUNDS; r++) {
    const t = performance.now();
    fn();
    min = Math.min(min, performance.now() - t);
  }
  return min;
}

export default async function engineBacktestBench(): Promise<void> {
  const t0 = performance.now();
  const bars: BarSeries = generateBars({ seed: 42, count: BARS, volatility: 0.0008 });
  console.info(
    `generated ${BARS.toLocaleString('en')} seeded 1m bars in ${(performance.now() - t0).toFixed(0)} ms`,
  );
  const equity = new Float64Array(BARS);
  let sink = 0;
  const refMs = best(() => {
    sink += referenceLoop(bars.close, bars.length);
  });
  const refRate = BARS / (refMs / 1000);
  console.info(`reference Float64Array EMA-crossover loop: ${(refRate / 1e6).toFixed(1)} M bars/s`);
  const cases: [string, StrategyType, Record<string, unknown>][] = [
    ['ema-cross', emaCrossStrategy, { fast: 12, slow: 26 }],
    ['grid', gridStrategy, { lower: 40_000, upper: 60_000, gridCount: 40, quantityPerGrid: 0.01 }],
    ['dca', dcaStrategy, { safetyOrderCount: 5, priceDeviation: 0.005, takeProfit: 0.005 }],
  ];
  for (const [name, type, params] of cases) {
    let trades = 0;
    const ms = best(() => {
      const r = runBacktest(type, params, bars, {}, { equityBuffer: equity, keepDetails: false });
      trades = r.metrics.tradeCount;
      sink += r.metrics.finalEquity;
    });
    const rate = BARS / (ms / 1000);
    console.info(
      `${name.padEnd(10)} ${(rate / 1e6).toFixed(1).padStart(6)} M bars/s  ratio to reference ${(rate / refRate).toFixed(2)}  (${trades} trades, best of ${ROUNDS})`,
    );
  }
  if (Number.isNaN(sink)) console.info('');
}
