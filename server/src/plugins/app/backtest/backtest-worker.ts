/**
 * Worker-thread side of a backtest: rebuilds the bar series from the transferred columns, runs the engine and
 * shapes the result (downsampled equity, trades, markers) so only a small object crosses back.
 */
import { parentPort } from 'node:worker_threads';
import {
  BarSeries,
  EngineInputError,
  getBuiltInStrategy,
  type Metrics,
  runBacktest,
  StrategyError,
} from '@kestrel/engine';
import type { BacktestReply, BacktestTask } from './backtest-protocol';
import { describeTrades, downsampleEquity, tradeMarkers } from './backtest-result';

export function runTask(task: BacktestTask): BacktestReply {
  try {
    const bars = BarSeries.fromColumns(task.intervalMs, task);
    const result = runBacktest(getBuiltInStrategy(task.strategy), task.params, bars, task.settings);
    const trades = describeTrades(result.trades, result.fills, result.orders, task.maxTrades);
    return {
      ok: true,
      outcome: {
        metrics: finiteMetrics(result.metrics),
        equity: downsampleEquity(
          task.openTime,
          result.equity,
          result.metrics.initialBalance,
          task.maxEquityPoints,
        ),
        trades,
        markers: tradeMarkers(trades),
      },
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const kind =
      error instanceof EngineInputError ? 'input' : error instanceof StrategyError ? 'strategy' : 'internal';
    return { ok: false, kind, message };
  }
}

/**
 * JSON has no infinities or NaN: a tiny run can annualise to Infinity. Infinities become the largest double of
 * their sign, NaN becomes 0; profitFactor keeps its null ("no losing trade")
 */
function finiteMetrics(metrics: Metrics): Metrics {
  const out = { ...metrics };
  for (const [key, value] of Object.entries(out) as [keyof Metrics, number | null][]) {
    if (value === null || Number.isFinite(value)) continue;
    (out as Record<string, number>)[key] = Number.isNaN(value) ? 0 : Math.sign(value) * Number.MAX_VALUE;
  }
  return out;
}

const port = parentPort;
if (port) port.on('message', (task: BacktestTask) => port.postMessage(runTask(task)));
