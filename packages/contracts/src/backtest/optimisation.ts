import { z } from 'zod';
import { dataResponse } from '../common/error-response';
import {
  BacktestMetricsSchema,
  BacktestRequestSchema,
  jobProgressFields,
  jobSubjectFields,
} from './backtest';

/**
 * Optimisation jobs (issue 20): a parameter sweep of one built-in strategy over one symbol and range, every
 * combination backtested on the server's worker threads, with the statistics that say whether the best one is
 * more than luck (deflated Sharpe ratio, probability of backtest overfitting, a random-entry baseline). Optionally
 * a walk-forward analysis over the same grid: optimise on a train window, test the winner on the next test window,
 * move on by the step, and stitch the test pieces. Queued, leased and cancelled like backtests; progress arrives as
 * `notifications/optimisation`.
 */

/** The largest grid a job takes (the product of every parameter's value count) */
export const OPTIMISATION_MAX_COMBINATIONS = 20_000;
/** A range's values are counted before they are listed: a range of more values than this is refused outright */
const MAX_AXIS_VALUES = OPTIMISATION_MAX_COMBINATIONS;

/** Metrics a sweep ranks by (higher is better; maxDrawdown lowest first): the engine's `OBJECTIVES` */
export const OPTIMISATION_OBJECTIVES = [
  'totalReturn',
  'annualisedReturn',
  'sharpe',
  'sortino',
  'calmar',
  'profitFactor',
  'maxDrawdown',
] as const;
export const OptimisationObjectiveSchema = z.enum(OPTIMISATION_OBJECTIVES, {
  error: `objective must be one of ${OPTIMISATION_OBJECTIVES.join(', ')}`,
});
export type OptimisationObjective = z.infer<typeof OptimisationObjectiveSchema>;

const ParamValueSchema = z.union([z.number(), z.string(), z.boolean()], {
  error: 'a value must be a number, a string or true/false',
});

/** One parameter's values: a list, or a range from `from` to `to` (inclusive) by `step` */
export const ParamAxisSchema = z.union(
  [
    z.strictObject({
      values: z
        .array(ParamValueSchema, { error: 'values must be a list' })
        .min(1, 'values must list at least one value'),
    }),
    z
      .strictObject({
        from: z.number({ error: 'from must be a number' }),
        to: z.number({ error: 'to must be a number' }),
        step: z.number({ error: 'step must be a number' }).positive('step must be greater than 0'),
      })
      .refine((r) => r.to >= r.from, {
        path: ['to'],
        message: 'to must be at least from (the range is empty)',
      })
      .refine((r) => !(r.step > 0) || r.to < r.from || (r.to - r.from) / r.step < MAX_AXIS_VALUES, {
        path: ['step'],
        message: `step is too small: the range would have more than ${MAX_AXIS_VALUES} values`,
      }),
  ],
  { error: 'a parameter takes { values: [...] } or { from, to, step }' },
);
export type ParamAxis = z.infer<typeof ParamAxisSchema>;

/** Decimals of a number as written (0.25 → 2), so range values come out as the decimals a user typed */
function decimals(x: number): number {
  const text = String(x);
  const exp = /e-(\d+)$/.exec(text);
  if (exp) return Number(exp[1]);
  return text.includes('.') ? (text.split('.')[1]?.length ?? 0) : 0;
}

/** How many values an axis has, without listing them (0 for an empty or invalid range) */
export function axisCount(axis: ParamAxis): number {
  if ('values' in axis) return axis.values.length;
  if (!(axis.step > 0) || axis.to < axis.from) return 0;
  return Math.floor((axis.to - axis.from) / axis.step + 1e-9) + 1;
}

/** The values of one axis: the list, or from, from + step, … up to `to` (rounded to the inputs' decimals) */
export function axisValues(axis: ParamAxis): (number | string | boolean)[] {
  if ('values' in axis) return axis.values;
  const places = Math.min(12, Math.max(decimals(axis.from), decimals(axis.step)));
  return Array.from({ length: Math.min(axisCount(axis), MAX_AXIS_VALUES) }, (_, i) =>
    Number((axis.from + i * axis.step).toFixed(places)),
  );
}

/** How many combinations a space expands to */
export function countCombinations(space: Record<string, ParamAxis>): number {
  return Object.values(space).reduce((n, axis) => n * axisCount(axis), 1);
}

/** Walk-forward windows as durations (ms): train on `trainMs`, test on the next `testMs`, move on by `stepMs` */
export const WalkForwardRequestSchema = z.strictObject({
  trainMs: z
    .number({ error: 'trainMs must be a duration in milliseconds' })
    .int('trainMs must be a whole number of milliseconds')
    .positive('trainMs must be greater than 0'),
  testMs: z
    .number({ error: 'testMs must be a duration in milliseconds' })
    .int('testMs must be a whole number of milliseconds')
    .positive('testMs must be greater than 0'),
  /** Default: the test window (the test pieces tile the range) */
  stepMs: z
    .number({ error: 'stepMs must be a duration in milliseconds' })
    .int('stepMs must be a whole number of milliseconds')
    .positive('stepMs must be greater than 0')
    .optional(),
});
export type WalkForwardRequest = z.infer<typeof WalkForwardRequestSchema>;

const base = BacktestRequestSchema.shape;

/** POST /api/v1/optimisations */
export const OptimisationRequestSchema = z
  .strictObject({
    strategy: base.strategy,
    /** Parameters not swept keep these values (the strategy's defaults for those not given) */
    params: base.params,
    symbol: base.symbol,
    interval: base.interval,
    startTime: base.startTime,
    endTime: base.endTime,
    costs: base.costs,
    /** The swept parameters: each a list of values or a range with a step */
    space: z.record(z.string(), ParamAxisSchema, { error: 'space must be an object of parameters' }),
    objective: OptimisationObjectiveSchema.default('sharpe'),
    /** Also run a walk-forward analysis of the same grid over the range */
    walkForward: WalkForwardRequestSchema.optional(),
  })
  .superRefine((r, ctx) => {
    if (r.endTime <= r.startTime)
      ctx.addIssue({ code: 'custom', path: ['endTime'], message: 'endTime must be after startTime' });
    if (Object.keys(r.space).length === 0) {
      ctx.addIssue({ code: 'custom', path: ['space'], message: 'space must sweep at least one parameter' });
      return;
    }
    const total = countCombinations(r.space);
    // A bad axis has its own issue already (an empty range counts 0)
    if (
      total > OPTIMISATION_MAX_COMBINATIONS &&
      Object.values(r.space).every((a) => axisCount(a) <= MAX_AXIS_VALUES)
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['space'],
        message: `space has ${total} combinations; at most ${OPTIMISATION_MAX_COMBINATIONS} are allowed`,
      });
    }
  });
export type OptimisationRequestInput = z.input<typeof OptimisationRequestSchema>;
export type OptimisationRequest = z.output<typeof OptimisationRequestSchema>;

/** The statistics of one sweep (engine `overfittingReport`); Sharpe ratios per return period, not annualised */
export const OptimisationStatsSchema = z.object({
  /** Combinations that ran: N of the deflated Sharpe ratio */
  trials: z.number().int(),
  /** Combinations the strategy refused */
  refused: z.number().int(),
  /** Length of one return period, ms (a day unless the range is short) */
  periodMs: z.number(),
  /** Return periods T */
  periods: z.number().int(),
  bestIndex: z.number().int(),
  bestSharpe: z.number(),
  bestSkewness: z.number(),
  bestKurtosis: z.number(),
  /** V[SR] of the trials, SR₀ the best of N unskilled trials would show, PSR against 0 and against SR₀ (DSR) */
  sharpeVariance: z.number(),
  expectedMaxSharpe: z.number(),
  psr: z.number().nullable(),
  dsr: z.number().nullable(),
  /** Null when there are fewer than two trials or eight periods */
  pbo: z
    .object({
      pbo: z.number(),
      partitions: z.number().int(),
      splits: z.number().int(),
      medianLogit: z.number(),
      probabilityOfOosLoss: z.number(),
    })
    .nullable(),
  randomEntry: z.object({
    samples: z.number().int(),
    meanSharpe: z.number(),
    p95Sharpe: z.number(),
    pValue: z.number(),
  }),
  gates: z.object({ dsr: z.number(), pbo: z.number(), randomEntryP: z.number() }),
  passes: z.object({ dsr: z.boolean(), pbo: z.boolean(), randomEntry: z.boolean() }),
});
export type OptimisationStats = z.infer<typeof OptimisationStatsSchema>;

export const OptimisationBestSchema = z.object({
  index: z.number().int(),
  params: z.record(z.string(), z.unknown()),
  /** In-sample figures: the best of many trials, so flattering by construction */
  metrics: BacktestMetricsSchema,
});

/** One row of GET /api/v1/optimisations */
export const OptimisationSummarySchema = z.object({
  ...jobSubjectFields,
  objective: OptimisationObjectiveSchema,
  /** Grid size */
  combinations: z.number().int(),
  walkForward: z.boolean(),
  ...jobProgressFields,
  stats: OptimisationStatsSchema.nullable(),
  best: OptimisationBestSchema.nullable(),
});
export type OptimisationSummary = z.infer<typeof OptimisationSummarySchema>;

export const WalkForwardFoldSchema = z.object({
  trainStart: z.number().int(),
  /** The test window starts here */
  testStart: z.number().int(),
  testEnd: z.number().int(),
  params: z.record(z.string(), z.unknown()),
  inSample: BacktestMetricsSchema,
  outOfSample: BacktestMetricsSchema,
});
export type WalkForwardFold = z.infer<typeof WalkForwardFoldSchema>;

/** A point of the stitched out-of-sample curve: growth of 1 and buy-and-hold's over the same bars */
export const StitchedPointSchema = z.object({
  time: z.number().int(),
  equity: z.number(),
  buyAndHold: z.number(),
});

export const WalkForwardResultSchema = z.object({
  folds: z.array(WalkForwardFoldSchema),
  /** At most BACKTEST_MAX_EQUITY_POINTS points */
  stitched: z.array(StitchedPointSchema),
  outOfSampleReturn: z.number(),
  buyAndHoldReturn: z.number(),
  meanInSampleScore: z.number(),
  meanOutOfSampleScore: z.number(),
});
export type WalkForwardResult = z.infer<typeof WalkForwardResultSchema>;

/** GET /api/v1/optimisations/:id */
export const OptimisationDetailSchema = OptimisationSummarySchema.extend({
  request: z.record(z.string(), z.unknown()),
  /** The swept parameters, in the grid's order */
  parameters: z.array(z.string()),
  walkForwardResult: WalkForwardResultSchema.nullable(),
});
export type OptimisationDetail = z.infer<typeof OptimisationDetailSchema>;

export const OptimisationRowSchema = z.object({
  /** Position in the grid */
  index: z.number().int(),
  params: z.record(z.string(), z.unknown()),
  /** Null when the strategy refused the combination (`error` says why) */
  metrics: BacktestMetricsSchema.nullable(),
  error: z.string().nullable(),
});
export type OptimisationRow = z.infer<typeof OptimisationRowSchema>;

export const OptimisationIdParamsSchema = z.object({
  id: z.uuid({ error: 'id must be an optimisation id (a UUID)' }),
});

export const OptimisationSummaryResponseSchema = dataResponse(OptimisationSummarySchema);
export const OptimisationListResponseSchema = dataResponse(z.array(OptimisationSummarySchema));
export const OptimisationDetailResponseSchema = dataResponse(OptimisationDetailSchema);
/** GET /api/v1/optimisations/:id/results: every combination, in grid order (empty until completed) */
export const OptimisationResultsResponseSchema = dataResponse(z.array(OptimisationRowSchema));
