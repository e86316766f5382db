/**
 * Worker-thread side of a backtest: rebuilds the bar series from the transferred columns, runs the engine and
 * shapes the result (downsampled equity, trades, markers) so only a small object crosses back.
 */
import { parentPort } from 'node:worker_threads';
import {
  BarSeries,
  EngineInputError,
  getBuiltInStrategy,
  runBacktest,
  StrategyError,
  whyNoTrade,
} from '@kestrel/engine';
import type { BacktestReply, BacktestTask } from './backtest-protocol';
import { describeTrades, downsampleEquity, finiteMetrics, tradeMarkers } from './backtest-result';

export function runTask(task: BacktestTask): BacktestReply {
  try {
    const bars = BarSeries.fromColumns(task.intervalMs, task);
    const result = runBacktest(getBuiltInStrategy(task.strategy), task.params, bars, task.settings);
    const trades = describeTrades(result.trades, result.fills, result.orders, task.maxTrades);
    return {
      ok: true,
      outcome: {
        metrics: { ...finiteMetrics(result.metrics), noTradeReason: whyNoTrade(result, bars) },
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

const port = parentPort;
if (port) port.on('message', (task: BacktestTask) => port.postMessage(runTask(task)));
