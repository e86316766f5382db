import type { MetricsInput } from './metrics';

/**
 * A metrics input for tests: the whole `equity` curve of an account that started with 100 and never traded, paid
 * or held anything; a test sets in `overrides` only the figures it checks
 */
export function metricsInput(
  equity: Float64Array,
  intervalMs: number,
  overrides: Partial<MetricsInput> = {},
): MetricsInput {
  return {
    equity,
    length: equity.length,
    intervalMs,
    initialBalance: 100,
    trades: [],
    barsInPosition: 0,
    feesPaid: 0,
    fundingPaid: 0,
    liquidations: 0,
    ...overrides,
  };
}
