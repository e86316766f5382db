import { z } from 'zod';
import { dataResponse } from '../common/error-response';
import { KLINE_INTERVALS, KlineIntervalSchema, SymbolSchema } from '../market/market';
import { BacktestStatusSchema } from './job-status';

/**
 * Backtest jobs (issue 8): the browser posts a request, the server runs it off the event loop against klines it
 * fetched from the configured exchange and cached, pushes `notifications/backtest` while it runs and keeps the
 * result per user. Figures are numbers here (the engine computes in float64); only the exchange's own data travels
 * as decimal strings.
 */

/** Longest run accepted: one year of 1m bars (the server also refuses ranges with more bars than this) */
export const BACKTEST_MAX_BARS = 525_600;
/** The stored equity curve is downsampled to at most this many points, keeping each bucket's extremes */
export const BACKTEST_MAX_EQUITY_POINTS = 2_000;
/** The candle chart gets at most this many candles (the bars are aggregated to a coarser interval when needed) */
export const BACKTEST_MAX_CANDLES = 5_000;
/** At most this many trades are kept in a run's detail (the metrics count all of them) */
export const BACKTEST_MAX_TRADES = 10_000;

/**
 * Intervals a backtest runs on: every Binance kline interval, 1m to 1M (3d bars open on multiples of 3 days since
 * the epoch, 1w on Mondays, 1M on the 1st of each month: the engine's `barOpenTime` and `countBars` know how)
 */
export const BACKTEST_INTERVALS = KLINE_INTERVALS;

/** A number, or a decimal string such as "10000.5" (forms send strings) */
const numberLike = (field: string) =>
  z.union(
    [
      z.number({ error: `${field} must be a number` }),
      z
        .string()
        .trim()
        .regex(/^-?\d+(\.\d+)?$/, `${field} must be a decimal number`)
        .transform(Number),
    ],
    { error: `${field} must be a number` },
  );

/**
 * Account and cost settings; 1:1 onto the engine's broker settings (`initialBalance`, `leverage`, `marginMode`,
 * `makerFee`, `takerFee`, `slippageBps`; `funding: false` sets the funding rate to 0). Defaults are Binance's
 * regular tier (maker 0.02 %, taker 0.05 %).
 */
export const BacktestCostsSchema = z.strictObject({
  initialBalance: numberLike('initialBalance')
    .pipe(
      z
        .number()
        .positive('initialBalance must be greater than 0')
        .max(1_000_000_000, 'initialBalance must be at most 1000000000'),
    )
    .default(10_000),
  /** Leverage of the account; when left out, the strategy's own `leverage` parameter (else 1) */
  leverage: z
    .number({ error: 'leverage must be a number' })
    .int('leverage must be a whole number')
    .min(1, 'leverage must be at least 1')
    .max(125, 'leverage must be at most 125')
    .optional(),
  marginMode: z
    .enum(['cross', 'isolated'], { error: 'marginMode must be cross or isolated' })
    .default('cross'),
  makerFeeRate: numberLike('makerFeeRate')
    .pipe(
      z
        .number()
        .min(-0.001, 'makerFeeRate must be at least -0.001')
        .max(0.01, 'makerFeeRate must be at most 0.01'),
    )
    .default(0.0002),
  takerFeeRate: numberLike('takerFeeRate')
    .pipe(z.number().min(0, 'takerFeeRate must be at least 0').max(0.01, 'takerFeeRate must be at most 0.01'))
    .default(0.0005),
  /** Adverse slippage of market, stop and trailing fills in basis points (1 bp = 0.01 %) */
  slippageBps: numberLike('slippageBps')
    .pipe(z.number().min(0, 'slippageBps must be at least 0').max(1_000, 'slippageBps must be at most 1000'))
    .default(1),
  /** Charge funding every 8 h (the exchange's default rate of 0.01 %) */
  funding: z.boolean({ error: 'funding must be true or false' }).default(true),
});
export type BacktestCostsInput = z.input<typeof BacktestCostsSchema>;
export type BacktestCosts = z.output<typeof BacktestCostsSchema>;

const timeMs = (field: string) =>
  z
    .number({ error: `${field} must be a time in milliseconds since 1970` })
    .int(`${field} must be a whole number of milliseconds`)
    .min(0, `${field} must not be before 1970`);

/** POST /api/v1/backtests */
export const BacktestRequestSchema = z
  .strictObject({
    /** A built-in strategy id (GET /api/v1/backtests/strategies lists them), e.g. ema-cross, grid, dca, signal-rules */
    strategy: z.string({ error: 'strategy is required' }).trim().min(1, 'strategy is required'),
    /** Strategy parameters; the server validates them with the strategy's schema and fills defaults */
    params: z.record(z.string(), z.unknown(), { error: 'params must be an object' }).default({}),
    symbol: SymbolSchema,
    interval: KlineIntervalSchema,
    /** Open time of the first bar, ms */
    startTime: timeMs('startTime'),
    /** End of the range (exclusive), ms; must be after startTime, at most BACKTEST_MAX_BARS bars later */
    endTime: timeMs('endTime'),
    costs: BacktestCostsSchema.prefault({}),
  })
  .refine((r) => r.endTime > r.startTime, { path: ['endTime'], message: 'endTime must be after startTime' });
export type BacktestRequestInput = z.input<typeof BacktestRequestSchema>;
export type BacktestRequest = z.output<typeof BacktestRequestSchema>;

/** The engine's summary figures; ratios are fractions (0.1 = 10 %), money in the quote asset */
export const BacktestMetricsSchema = z.object({
  initialBalance: z.number(),
  finalEquity: z.number(),
  totalReturn: z.number(),
  annualisedReturn: z.number(),
  maxDrawdown: z.number(),
  sharpe: z.number(),
  sortino: z.number(),
  calmar: z.number(),
  tradeCount: z.number().int(),
  winRate: z.number(),
  /** Gross profit / gross loss; null when no trade lost */
  profitFactor: z.number().nullable(),
  exposure: z.number(),
  feesPaid: z.number(),
  fundingPaid: z.number(),
  liquidations: z.number().int(),
  bars: z.number().int(),
  /**
   * Why the run closed no trade, in words (a position still open, orders rejected by the exchange's rules and why,
   * orders the price never reached, no order at all); null when it traded. Absent on runs recorded before it
   */
  noTradeReason: z.string().nullable().optional(),
});
export type BacktestMetrics = z.infer<typeof BacktestMetricsSchema>;

/** What a backtest or optimisation job runs on: one strategy over one symbol's bars of a range (ms) */
export const jobSubjectFields = {
  id: z.string(),
  strategy: z.string(),
  strategyName: z.string(),
  symbol: z.string(),
  interval: KlineIntervalSchema,
  startTime: z.number().int(),
  endTime: z.number().int(),
};

/** Where a backtest or optimisation job is: the same worker queue runs both */
export const jobProgressFields = {
  status: BacktestStatusSchema,
  /** 0..1 */
  progress: z.number().min(0).max(1),
  /** ms */
  createdAt: z.number().int(),
  /** ms; null until the run completed, failed or was canceled */
  finishedAt: z.number().int().nullable(),
  /** Why the run failed (or "canceled by the user"); null otherwise */
  error: z.string().nullable(),
};

/** One row of GET /api/v1/backtests */
export const BacktestSummarySchema = z.object({
  ...jobSubjectFields,
  ...jobProgressFields,
  metrics: BacktestMetricsSchema.nullable(),
});
export type BacktestSummary = z.infer<typeof BacktestSummarySchema>;

/** Equity after a bar's close and its drawdown from the running peak (a fraction, 0.1 = 10 % below the peak) */
export const EquityPointSchema = z.object({
  time: z.number().int(),
  equity: z.number(),
  drawdown: z.number(),
});
export type EquityPoint = z.infer<typeof EquityPointSchema>;

/** How a trade ended: the closing order's kind (signal = a market/limit order of the strategy) */
export const TRADE_EXIT_REASONS = [
  'signal',
  'stop-loss',
  'take-profit',
  'trailing-stop',
  'liquidation',
] as const;
export const TradeExitReasonSchema = z.enum(TRADE_EXIT_REASONS);

/** One round trip, from flat to flat (the engine's Trade) */
export const BacktestTradeSchema = z.object({
  /** 1-based, in closing order */
  id: z.number().int(),
  side: z.enum(['long', 'short']),
  entryTime: z.number().int(),
  /** Average entry price */
  entryPrice: z.number(),
  exitTime: z.number().int(),
  /** Average exit price */
  exitPrice: z.number(),
  /** Largest absolute size held, base asset */
  quantity: z.number(),
  /** Net: realized PnL − fees − funding */
  pnl: z.number(),
  /** Realized PnL before fees and funding */
  grossPnl: z.number(),
  fees: z.number(),
  /** Funding paid while open (negative: received) */
  funding: z.number(),
  exitReason: TradeExitReasonSchema,
});
export type BacktestTrade = z.infer<typeof BacktestTradeSchema>;

/** A mark for the candle chart: where a trade was entered or exited */
export const BacktestMarkerSchema = z.object({
  time: z.number().int(),
  price: z.number(),
  kind: z.enum(['entry', 'exit']),
  side: z.enum(['long', 'short']),
});
export type BacktestMarker = z.infer<typeof BacktestMarkerSchema>;

/** GET /api/v1/backtests/:id; equity, trades and markers are empty until the run completed */
/**
 * Which leverage brackets (maintenance margin tiers, so liquidation prices) a run used: `exchange`, the symbol's own
 * table read from the exchange with the owner's keys; `default`, the engine's BTCUSDT table (the owner has no keys
 * stored, or the exchange did not answer)
 */
export const BACKTEST_BRACKETS_SOURCES = ['exchange', 'default'] as const;
export const BacktestBracketsSourceSchema = z.enum(BACKTEST_BRACKETS_SOURCES);
export type BacktestBracketsSource = z.infer<typeof BacktestBracketsSourceSchema>;

export const BacktestDetailSchema = BacktestSummarySchema.extend({
  /** The request with the strategy's defaults filled in */
  request: z.object({
    strategy: z.string(),
    params: z.record(z.string(), z.unknown()),
    symbol: z.string(),
    interval: KlineIntervalSchema,
    startTime: z.number().int(),
    endTime: z.number().int(),
    costs: BacktestCostsSchema.extend({
      initialBalance: z.number(),
      makerFeeRate: z.number(),
      takerFeeRate: z.number(),
      slippageBps: z.number(),
    }),
  }),
  /** Downsampled to at most BACKTEST_MAX_EQUITY_POINTS points, keeping the extremes */
  equity: z.array(EquityPointSchema),
  /** At most BACKTEST_MAX_TRADES (the first ones); metrics.tradeCount counts all */
  trades: z.array(BacktestTradeSchema),
  markers: z.array(BacktestMarkerSchema),
  /** Leverage brackets the run used; null until it has completed */
  bracketsSource: BacktestBracketsSourceSchema.nullable(),
});
export type BacktestDetail = z.infer<typeof BacktestDetailSchema>;

export const BacktestCandleSchema = z.object({
  /** Open time, ms */
  time: z.number().int(),
  open: z.number(),
  high: z.number(),
  low: z.number(),
  close: z.number(),
  volume: z.number(),
});
export type BacktestCandle = z.infer<typeof BacktestCandleSchema>;

/** GET /api/v1/backtests/:id/candles: the run's bars, aggregated to `interval` so there are ≤ BACKTEST_MAX_CANDLES */
export const BacktestCandlesSchema = z.object({
  interval: KlineIntervalSchema,
  candles: z.array(BacktestCandleSchema),
});
export type BacktestCandles = z.infer<typeof BacktestCandlesSchema>;

/** GET /api/v1/backtests/strategies: one built-in strategy, with what a form needs to render its parameters */
export const BacktestStrategyInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** JSON Schema (input side) of the parameters: types, bounds, defaults */
  paramsJsonSchema: z.record(z.string(), z.unknown()),
  /** The parameters with every default filled in */
  defaults: z.record(z.string(), z.unknown()),
  /**
   * True: it trades on outside signals only (a bot's webhook), its bars never trade: a backtest of it has no trade,
   * and a bot of it runs live only
   */
  takesSignals: z.boolean().default(false),
});
export type BacktestStrategyInfo = z.infer<typeof BacktestStrategyInfoSchema>;

export const BacktestIdParamsSchema = z.object({
  id: z.uuid({ error: 'id must be a backtest id (a UUID)' }),
});

export const BacktestStrategiesResponseSchema = dataResponse(z.array(BacktestStrategyInfoSchema));
export const BacktestSummaryResponseSchema = dataResponse(BacktestSummarySchema);
export const BacktestListResponseSchema = dataResponse(z.array(BacktestSummarySchema));
export const BacktestDetailResponseSchema = dataResponse(BacktestDetailSchema);
export const BacktestCandlesResponseSchema = dataResponse(BacktestCandlesSchema);
