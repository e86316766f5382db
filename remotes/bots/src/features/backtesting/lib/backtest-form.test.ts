import { BacktestRequestSchema } from '@kestrel/contracts/backtest';
import { describe, expect, it } from 'vitest';
import { DEFAULT_COSTS, engineCatalogue } from '../../../test/fixtures';
import {
  describeParams,
  paramsToFormValues,
  parseStrategyParams,
} from '../../strategy-params/lib/params-schema';
import {
  type BacktestFormValues,
  backtestFormSchema,
  defaultFormValues,
  toBacktestRequest,
} from './backtest-form';

const NOW = Date.UTC(2025, 5, 15, 12, 30);
const now = () => NOW;
const schema = backtestFormSchema(parseStrategyParams, now);
const catalogue = engineCatalogue();

function values(overrides: Partial<BacktestFormValues> = {}): BacktestFormValues {
  // The strategy's defaults as the page puts them in the form (fractions shown as percent)
  const toForm = (s: (typeof catalogue)[number]) =>
    paramsToFormValues(s.defaults, describeParams(s.paramsJsonSchema));
  return { ...defaultFormValues(catalogue[0], toForm, NOW), ...overrides };
}

function issues(input: BacktestFormValues): Record<string, string> {
  const result = schema.safeParse(input);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
}

describe('backtest form rules', () => {
  it('accepts the starting values: BTCUSDT 1h over the last 30 full days', () => {
    const start = values();
    expect(start).toMatchObject({
      symbol: 'BTCUSDT',
      interval: '1h',
      startDate: '2025-05-16',
      endDate: '2025-06-14',
    });
    expect(issues(start)).toEqual({});
  });

  it('puts each problem on its field', () => {
    const found = issues(
      values({
        symbol: 'b!',
        costs: { ...values().costs, initialBalance: 0, takerFeePct: Number.NaN, slippageBps: 5_000 },
      }),
    );
    expect(found).toEqual({
      symbol: 'Enter a symbol of 3-20 letters or digits, e.g. BTCUSDT',
      'costs.initialBalance': 'Initial balance must be greater than 0',
      'costs.takerFeePct': 'Taker fee must be a number',
      'costs.slippageBps': 'Slippage must be at most 1000 bp',
    });
  });

  it('refuses an end before the start and a start in the future', () => {
    expect(issues(values({ startDate: '2025-03-10', endDate: '2025-03-01' }))).toEqual({
      endDate: 'End date must be on or after the start date',
    });
    expect(issues(values({ startDate: '2025-06-16', endDate: '2025-06-20' }))).toEqual({
      startDate: 'Start date cannot be in the future',
    });
  });

  it('refuses a range with more bars than the server runs, and says how to fix it', () => {
    const found = issues(values({ interval: '1m', startDate: '2023-01-01', endDate: '2025-01-01' }));
    // 732 days (2024 is a leap year) of 1440 one-minute bars
    expect(found.endDate).toBe(
      'This range has 1,054,080 1m bars; at most 525,600: shorten it or pick a longer interval',
    );
    // 365 whole days of 1m bars is exactly the limit
    expect(issues(values({ interval: '1m', startDate: '2024-01-01', endDate: '2024-12-30' }))).toEqual({});
    expect(
      issues(values({ interval: '1m', startDate: '2024-01-01', endDate: '2024-12-31' })).endDate,
    ).toMatch(/^This range has 527,040 1m bars/);
    expect(issues(values({ interval: '1h', startDate: '2023-01-01', endDate: '2025-01-01' }))).toEqual({});
  });

  it('counts 3d, 1w and 1M bars where they open, and refuses a range without a closed bar', () => {
    // NOW is Sunday 15 June 2025: the June bar and the week from Monday 9 June are still open
    expect(issues(values({ interval: '1M', startDate: '2025-01-01', endDate: '2025-06-15' }))).toEqual({});
    expect(issues(values({ interval: '1M', startDate: '2025-06-01', endDate: '2025-06-15' }))).toEqual({
      endDate: 'This range holds no closed 1M bar: widen it or pick a shorter interval',
    });
    expect(issues(values({ interval: '1M', startDate: '2025-03-02', endDate: '2025-03-31' })).endDate).toBe(
      'This range holds no closed 1M bar: widen it or pick a shorter interval',
    );
    expect(issues(values({ interval: '1w', startDate: '2025-06-09', endDate: '2025-06-15' })).endDate).toBe(
      'This range holds no closed 1w bar: widen it or pick a shorter interval',
    );
    expect(issues(values({ interval: '1w', startDate: '2025-06-02', endDate: '2025-06-15' }))).toEqual({});
    // 2025-06-11 is a multiple of 3 days since the epoch; 12 to 13 June holds no 3d open
    expect(issues(values({ interval: '3d', startDate: '2025-06-12', endDate: '2025-06-13' })).endDate).toBe(
      'This range holds no closed 3d bar: widen it or pick a shorter interval',
    );
    const weekly = toBacktestRequest(
      values({ interval: '1w', startDate: '2025-01-01', endDate: '2025-06-01' }),
      {},
      NOW,
    );
    expect(BacktestRequestSchema.safeParse(weekly).success).toBe(true);
  });

  it("checks the strategy's parameters with the engine, under the parameter's field", () => {
    expect(issues(values({ strategy: 'ema-cross', params: { fast: 50, slow: 20 } }))).toEqual({
      'params.fast': 'fast must be below slow',
    });
  });
});

describe('the request sent to the server', () => {
  it('covers whole UTC days, converts percent fees to rates and passes the API contract', () => {
    const form = values({ symbol: ' ethusdt ', startDate: '2025-01-01', endDate: '2025-01-31' });
    const request = toBacktestRequest(form, { fast: 5, slow: 20 }, NOW);
    expect(request).toEqual({
      strategy: catalogue[0]?.id,
      params: { fast: 5, slow: 20 },
      symbol: 'ETHUSDT',
      interval: '1h',
      startTime: Date.UTC(2025, 0, 1),
      endTime: Date.UTC(2025, 1, 1),
      costs: DEFAULT_COSTS,
    });
    expect(BacktestRequestSchema.safeParse(request).success).toBe(true);
  });

  it('ends a range that reaches today at the current time, not in the future', () => {
    const request = toBacktestRequest(values({ startDate: '2025-06-10', endDate: '2025-06-15' }), {}, NOW);
    expect(request.endTime).toBe(NOW);
  });
});
