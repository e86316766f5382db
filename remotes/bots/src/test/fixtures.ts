import type {
  BacktestCosts,
  BacktestMetrics,
  BacktestStrategyInfo,
  BacktestSummary,
} from '@kestrel/contracts/backtest';
import { strategyCatalogue } from '@kestrel/engine';

/** The strategy catalogue as the server answers it: the engine's own mapping of its built-in strategies */
export function engineCatalogue(): BacktestStrategyInfo[] {
  return strategyCatalogue();
}

/** The backtest form's default costs as a request carries them (fees as rates) */
export const DEFAULT_COSTS: BacktestCosts = {
  initialBalance: 10_000,
  marginMode: 'cross',
  makerFeeRate: 0.0002,
  takerFeeRate: 0.0005,
  slippageBps: 1,
  funding: true,
};

export function metrics(overrides: Partial<BacktestMetrics> = {}): BacktestMetrics {
  return {
    initialBalance: 10_000,
    finalEquity: 11_000,
    totalReturn: 0.1,
    annualisedReturn: 0.5,
    maxDrawdown: 0.05,
    sharpe: 1.5,
    sortino: 2,
    calmar: 10,
    tradeCount: 10,
    winRate: 0.6,
    profitFactor: 1.8,
    exposure: 0.4,
    feesPaid: 12.5,
    fundingPaid: 3.25,
    liquidations: 0,
    bars: 720,
    ...overrides,
  };
}

export function summary(id: string, overrides: Partial<BacktestSummary> = {}): BacktestSummary {
  return {
    id,
    strategy: 'ema-cross',
    strategyName: 'EMA crossover',
    symbol: 'BTCUSDT',
    interval: '1h',
    startTime: Date.UTC(2025, 0, 1),
    endTime: Date.UTC(2025, 1, 1),
    status: 'completed',
    progress: 1,
    createdAt: Date.UTC(2025, 1, 2),
    finishedAt: Date.UTC(2025, 1, 2, 0, 1),
    error: null,
    metrics: metrics(),
    ...overrides,
  };
}
