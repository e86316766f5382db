import {
  BACKTEST_INTERVALS,
  BACKTEST_MAX_BARS,
  type BacktestRequestInput,
  type BacktestStrategyInfo,
} from '@kestrel/contracts/backtest';
import { barOpenTime, countBars } from '@kestrel/engine';
import { z } from 'zod';
import { addParamsIssues, type ParamsValidator } from '../../../lib/params-validator';

const DAY_MS = 86_400_000;

/** Intervals a backtest runs on (1m..1M), labelled with Binance's names as traders read them */
export const FORM_INTERVALS = BACKTEST_INTERVALS;

const dateText = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label} is required`)
    .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), `${label} is not a valid date`);

const amount = (label: string) => z.number({ error: `${label} must be a number` });

/** The form's own fields; fees are in percent (what traders read on the exchange), converted on submit */
const FormShape = z.object({
  strategy: z.string({ error: 'Choose a strategy' }).min(1, 'Choose a strategy'),
  params: z.record(z.string(), z.unknown()),
  symbol: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9]{3,20}$/, 'Enter a symbol of 3-20 letters or digits, e.g. BTCUSDT'),
  interval: z.enum(BACKTEST_INTERVALS, { error: 'Choose an interval' }),
  startDate: dateText('Start date'),
  endDate: dateText('End date'),
  costs: z.object({
    initialBalance: amount('Initial balance')
      .positive('Initial balance must be greater than 0')
      .max(1_000_000_000, 'Initial balance must be at most 1,000,000,000'),
    marginMode: z.enum(['cross', 'isolated']),
    makerFeePct: amount('Maker fee')
      .min(-0.1, 'Maker fee must be at least -0.1 %')
      .max(1, 'Maker fee must be at most 1 %'),
    takerFeePct: amount('Taker fee')
      .min(0, 'Taker fee must be at least 0 %')
      .max(1, 'Taker fee must be at most 1 %'),
    slippageBps: amount('Slippage')
      .min(0, 'Slippage must be at least 0')
      .max(1_000, 'Slippage must be at most 1000 bp'),
    funding: z.boolean(),
  }),
});

export type BacktestFormValues = z.input<typeof FormShape>;

/** Range of the form's dates in ms: start of the first day to the end of the last (UTC), never past `now` */
export function dateRange(
  startDate: string,
  endDate: string,
  now: number,
): { startTime: number; endTime: number } {
  const startTime = Date.parse(`${startDate}T00:00:00Z`);
  const endTime = Math.min(Date.parse(`${endDate}T00:00:00Z`) + DAY_MS, now);
  return { startTime, endTime };
}

/**
 * The form's schema: field rules, then the date range (end after start, not in the future, at least one closed bar
 * and at most BACKTEST_MAX_BARS bars, counted as the server does) and the strategy's parameters, each issue on the
 * field it is about
 */
export function backtestFormSchema(validateParams: ParamsValidator, now: () => number = Date.now) {
  return FormShape.superRefine((values, ctx) => {
    const today = new Date(now()).toISOString().slice(0, 10);
    if (values.startDate > today) {
      ctx.addIssue({ code: 'custom', path: ['startDate'], message: 'Start date cannot be in the future' });
    } else if (values.endDate < values.startDate) {
      ctx.addIssue({
        code: 'custom',
        path: ['endDate'],
        message: 'End date must be on or after the start date',
      });
    } else {
      const { startTime, endTime } = dateRange(values.startDate, values.endDate, now());
      // Bars that open in the range and have closed (3d, 1w and 1M bars open on their calendar boundaries)
      const closedEnd = Math.min(endTime, barOpenTime(values.interval, now()));
      const bars = countBars(values.interval, startTime, closedEnd);
      if (bars === 0) {
        ctx.addIssue({
          code: 'custom',
          path: ['endDate'],
          message: `This range holds no closed ${values.interval} bar: widen it or pick a shorter interval`,
        });
      } else if (bars > BACKTEST_MAX_BARS) {
        ctx.addIssue({
          code: 'custom',
          path: ['endDate'],
          message: `This range has ${bars.toLocaleString('en-US')} ${values.interval} bars; at most ${BACKTEST_MAX_BARS.toLocaleString('en-US')}: shorten it or pick a longer interval`,
        });
      }
    }
    addParamsIssues(ctx, validateParams, values);
  });
}

/** Fraction of a percent figure, without float dust (0.02 % → 0.0002, not 0.00019999999999999998) */
function percentToRate(pct: number): number {
  return Number((pct / 100).toPrecision(12));
}

/** The API request for valid form values (params already checked and decoded by `validateParams`) */
export function toBacktestRequest(
  values: BacktestFormValues,
  params: Record<string, unknown>,
  now: number,
): BacktestRequestInput {
  const { startTime, endTime } = dateRange(values.startDate, values.endDate, now);
  return {
    strategy: values.strategy,
    params,
    symbol: values.symbol.trim().toUpperCase(),
    interval: values.interval,
    startTime,
    endTime,
    costs: {
      initialBalance: values.costs.initialBalance,
      marginMode: values.costs.marginMode,
      makerFeeRate: percentToRate(values.costs.makerFeePct),
      takerFeeRate: percentToRate(values.costs.takerFeePct),
      slippageBps: values.costs.slippageBps,
      funding: values.costs.funding,
    },
  };
}

/** Starting values: the first strategy with its defaults, BTCUSDT 1h over the last 30 full days, exchange costs */
export function defaultFormValues(
  strategy: BacktestStrategyInfo | undefined,
  paramsToForm: (strategy: BacktestStrategyInfo) => Record<string, unknown>,
  now: number,
): BacktestFormValues {
  const today = Date.UTC(
    new Date(now).getUTCFullYear(),
    new Date(now).getUTCMonth(),
    new Date(now).getUTCDate(),
  );
  const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return {
    strategy: strategy?.id ?? '',
    params: strategy ? paramsToForm(strategy) : {},
    symbol: 'BTCUSDT',
    interval: '1h',
    startDate: iso(today - 30 * DAY_MS),
    endDate: iso(today - DAY_MS),
    costs: {
      initialBalance: 10_000,
      marginMode: 'cross',
      makerFeePct: 0.02,
      takerFeePct: 0.05,
      slippageBps: 1,
      funding: true,
    },
  };
}
