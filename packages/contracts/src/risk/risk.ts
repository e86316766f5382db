import { z } from 'zod';
import { okResponse } from '../common/error-response';
import { countParam, decimal, limitText, ms } from '../common/fields';
import { PositionSideSchema } from '../futures/futures';

/** Highest leverage Binance allows on any USDⓈ-M symbol */
export const MAX_EXCHANGE_LEVERAGE = 125;

/** A positive limit (within `range`), or null for "no limit" (an empty form field); `name` is the form's label */
const limit = (name: string, range?: { min: number; max: number }) =>
  z
    .number({ error: `${name} must be a number` })
    .refine(
      (v) => Number.isFinite(v) && (range ? v >= range.min && v <= range.max : v > 0),
      range ? `${name} must be between ${range.min} and ${range.max}` : `${name} must be greater than 0`,
    )
    .nullable();

/**
 * GET/PUT /api/v1/risk/limits: the account limits the server checks before every order it places. null = no
 * limit. Orders that only reduce exposure (reduce-only, closing) always pass
 */
export const RiskLimitsSchema = z.object({
  /** Largest effective leverage (open notional / margin balance) an order may take the account to, 1–125 */
  maxLeverage: limit('Max leverage', { min: 1, max: MAX_EXCHANGE_LEVERAGE }).describe(
    'Largest effective leverage (open notional / margin balance), 1–125; null: no limit',
  ),
  /** Largest loss of the UTC day (realized since 00:00 UTC + unrealized now), USDT */
  dailyLossLimit: limit('Daily loss limit').describe(
    'USDT; today’s loss = −(realized PnL, fees and funding since 00:00 UTC + unrealized PnL now); at or ' +
      'above it new exposure is refused until the next UTC day. null: no limit',
  ),
  /** Largest fall of the margin balance from its recorded peak, percent */
  maxDrawdownPercent: limit('Max drawdown', { min: 0.01, max: 100 }).describe(
    'Percent below the highest recorded margin balance (the account recorder’s snapshots); at or above it new ' +
      'exposure is refused until the limit is raised. null: no limit',
  ),
  /** Largest notional of one symbol's position after an order, USDT */
  maxPositionNotional: limit('Max position notional').describe(
    'USDT: largest notional of any one symbol’s position after an order. null: no limit',
  ),
});
export type RiskLimits = z.infer<typeof RiskLimitsSchema>;

/** The limits form: the fields as typed (text), read into `RiskLimits` by the same rules */
export const RiskLimitsFormSchema = z.object({
  maxLeverage: limitText(RiskLimitsSchema.shape.maxLeverage, 'Max leverage'),
  dailyLossLimit: limitText(RiskLimitsSchema.shape.dailyLossLimit, 'Daily loss limit'),
  maxDrawdownPercent: limitText(RiskLimitsSchema.shape.maxDrawdownPercent, 'Max drawdown'),
  maxPositionNotional: limitText(RiskLimitsSchema.shape.maxPositionNotional, 'Max position notional'),
});
export type RiskLimitsFormValues = z.input<typeof RiskLimitsFormSchema>;

/** The limits and when they were last changed (null: never set) */
export const StoredRiskLimitsSchema = RiskLimitsSchema.extend({ updatedAt: ms.nullable() });
export type StoredRiskLimits = z.infer<typeof StoredRiskLimitsSchema>;

export const RISK_LIMIT_NAMES = [
  'maxLeverage',
  'dailyLossLimit',
  'maxDrawdownPercent',
  'maxPositionNotional',
] as const;
export const RiskLimitNameSchema = z.enum(RISK_LIMIT_NAMES);
export type RiskLimitName = z.infer<typeof RiskLimitNameSchema>;

/** How close one limit is to breaking */
export const LimitUsageSchema = z.object({
  name: RiskLimitNameSchema,
  /** The limit, null when none is set */
  limit: z.number().nullable(),
  /** The figure the limit is checked against (leverage ×, loss USDT, drawdown %, largest symbol notional USDT) */
  current: z.number(),
  /** current / limit × 100, null without a limit */
  usedPercent: z.number().nullable(),
  /** At or above the limit: new exposure is refused */
  breached: z.boolean(),
});
export type LimitUsage = z.infer<typeof LimitUsageSchema>;

/** One open position's risk figures */
export const RiskPositionSchema = z.object({
  symbol: z.string(),
  positionSide: PositionSideSchema,
  /** Signed: negative is short */
  amount: decimal,
  notional: decimal,
  markPrice: decimal,
  liquidationPrice: decimal,
  unrealizedPnl: decimal,
  /** |mark − liquidation| / mark × 100; null when the exchange reports no liquidation price */
  liquidationDistancePercent: z.number().nullable(),
  /** ATR(14) of the symbol's 1h candles (Wilder), price units; null when fewer than 14 candles exist */
  atr: z.number().nullable(),
  /** |mark − liquidation| / ATR: how many typical hourly moves away liquidation is */
  liquidationDistanceAtr: z.number().nullable(),
});
export type RiskPosition = z.infer<typeof RiskPositionSchema>;

/** Open notional of one symbol by direction, USDT (absolute values; net = long − short) */
export const ExposureSchema = z.object({
  symbol: z.string(),
  long: z.number(),
  short: z.number(),
  net: z.number(),
});
export type Exposure = z.infer<typeof ExposureSchema>;

/**
 * 1-day 95 % historical VaR of the current positions. Method: for each of the last 90 daily closes of each symbol
 * the day's return r = close / previous close − 1; each day's scenario PnL = Σ signed notional × r over the open
 * positions (days every symbol has); VaR = the loss at the 5th percentile of those scenarios (sorted ascending,
 * the value at index ⌊0.05 × n⌋), reported as a positive USDT amount (0 when even that day is a gain)
 */
export const ValueAtRiskSchema = z
  .object({
    /** USDT, positive = a loss; null without positions or with fewer than 10 scenario days */
    value: z.number().nullable(),
    confidence: z.literal(0.95),
    horizonDays: z.literal(1),
    /** Scenario days used */
    observations: z.number().int(),
    method: z.string(),
  })
  .describe(
    '1-day 95 % historical VaR of the current positions, USDT (positive = a loss). Method: the last 90 daily ' +
      'closes of each held symbol give daily returns r = close / previous close − 1; each day’s scenario PnL = ' +
      'Σ signed notional × r over the positions (days every symbol has); VaR = −(the scenario PnL at index ' +
      '⌊0.05 n⌋ of the n sorted ascending), at least 0; null without positions or with fewer than 10 days',
  );
export type ValueAtRisk = z.infer<typeof ValueAtRiskSchema>;

/** GET /api/v1/risk/overview */
export const RiskOverviewSchema = z.object({
  asOf: ms,
  marginBalance: decimal,
  maintenanceMargin: decimal,
  /** Maintenance margin / margin balance (the exchange liquidates at 1) */
  marginRatio: z.number(),
  /** Open orders, conditional ones included (what the kill switch would cancel) */
  openOrders: z.number().int(),
  /** Σ |notional| / margin balance */
  grossLeverage: z.number(),
  /** |Σ signed notional| / margin balance */
  netLeverage: z.number(),
  positions: z.array(RiskPositionSchema),
  exposure: z.array(ExposureSchema),
  valueAtRisk: ValueAtRiskSchema,
  limits: StoredRiskLimitsSchema,
  usage: z.array(LimitUsageSchema),
  /** Set when daily loss or drawdown is breached: only reducing orders pass */
  halted: z.string().nullable(),
});
export type RiskOverview = z.infer<typeof RiskOverviewSchema>;

export const RISK_EVENT_KINDS = ['refusal', 'limits', 'kill_switch'] as const;
export const RiskEventKindSchema = z.enum(RISK_EVENT_KINDS);

/** One audit entry: a refused order, a change of limits, a kill switch */
export const RiskEventSchema = z.object({
  id: z.string(),
  kind: RiskEventKindSchema,
  /** What happened, in words */
  message: z.string(),
  /** The figures behind it (the order, the limits before and after, each kill-switch outcome) */
  detail: z.record(z.string(), z.unknown()),
  createdAt: ms,
});
export type RiskEvent = z.infer<typeof RiskEventSchema>;

export const RiskEventsQuerySchema = z.object({
  limit: countParam('limit', { max: 500, default: 100 }),
});

/** One order the kill switch canceled, or failed to */
export const KillSwitchOrderOutcomeSchema = z.object({
  symbol: z.string(),
  orderId: z.string(),
  kind: z.enum(['order', 'conditional']),
  ok: z.boolean(),
  /** Why it failed, in words */
  error: z.string().optional(),
});
/** One position the kill switch closed with a reduce-only market order, or failed to */
export const KillSwitchPositionOutcomeSchema = z.object({
  symbol: z.string(),
  positionSide: PositionSideSchema,
  amount: decimal,
  ok: z.boolean(),
  /** The closing order's id */
  orderId: z.string().optional(),
  error: z.string().optional(),
});

/** POST /api/v1/risk/kill-switch: every outcome, one failure does not stop the rest */
export const KillSwitchResultSchema = z.object({
  at: ms,
  orders: z.array(KillSwitchOrderOutcomeSchema),
  positions: z.array(KillSwitchPositionOutcomeSchema),
  /** Bots of the user stopped first, so none places an order while the switch runs */
  botsStopped: z.number().int(),
  /** Calls that failed (one per order, position or list) */
  failed: z.number().int(),
  /** Lists that could not be read (open orders, open positions), in words */
  errors: z.array(z.string()),
});
export type KillSwitchResult = z.infer<typeof KillSwitchResultSchema>;

export const RiskLimitsResponseSchema = okResponse(StoredRiskLimitsSchema);
export const RiskOverviewResponseSchema = okResponse(RiskOverviewSchema);
export const RiskEventsResponseSchema = okResponse(z.array(RiskEventSchema));
export const KillSwitchResponseSchema = okResponse(KillSwitchResultSchema);
