import { z } from 'zod';
import { okResponse } from '../common/error-response';
import { decimal, ms } from '../common/fields';
import { userText } from '../common/user-text';
import { TradingEnvironmentSchema } from '../environment/environment';
import { OrderSideSchema } from '../futures/futures';
import { KlineIntervalSchema, SymbolSchema } from '../market/market';
import { MAX_EXCHANGE_LEVERAGE } from '../risk/risk';

/**
 * Bots: a built-in strategy of the engine (grid, DCA, signal rules, EMA cross; later an AI agent) run by the
 * server on one symbol and interval, on paper (the engine's broker model on live prices) or live (real orders
 * through the server's order manager with the owner's keys). The spec's calls are `/api/v1/agents/*` (a bot and an
 * agent are the same thing to the API; `kind` tells them apart) and `GET /api/v1/dashboard/bots`.
 *
 * Decimals the exchange reports are strings; figures the server computes for display are numbers.
 */

export const BOT_NAME_MAX_LENGTH = 64;
/** How many bots one user may keep (stopped ones included) */
export const BOTS_PER_USER_MAX = 50;
/** Smallest budget a bot may trade with, USDT: Binance's smallest order notional is 5 USDT (100 on some symbols) */
export const BOT_MIN_BUDGET = 10;
export const BOT_MAX_BUDGET = 10_000_000;

export const BOT_MODES = ['paper', 'live'] as const;
export const BotModeSchema = z.enum(BOT_MODES, { error: 'mode must be paper or live' });
export type BotMode = z.infer<typeof BotModeSchema>;

/** `bot`: a rule-based strategy; `agent`: an AI agent (a bot whose strategy is a trained model) */
export const BOT_KINDS = ['bot', 'agent'] as const;
export const BotKindSchema = z.enum(BOT_KINDS);
export type BotKind = z.infer<typeof BotKindSchema>;

/**
 * stopped → starting (lease taken, exchange reconciled, history loaded) → running → stopping → stopped.
 * `error`: stopped by a fault the owner must look at (keys removed, exchange refusing, a risk breach); it says why in
 * `stopReason` and never restarts by itself. A running bot survives a server restart (it is resumed).
 * `paused` (running → stopping → paused): its session ended with its orders left standing (a live bot's on the
 * exchange, where they may fill); it places nothing new until it is started again, which cancels them and lays its
 * orders anew from the price then. A stop of a paused bot cancels them.
 */
export const BOT_STATES = ['stopped', 'starting', 'running', 'stopping', 'paused', 'error'] as const;
export const BotStateSchema = z.enum(BOT_STATES);
export type BotState = z.infer<typeof BotStateSchema>;

const limit = (name: string, range: { min: number; max: number }) =>
  z
    .number({ error: `${name} must be a number` })
    .refine(
      (v) => Number.isFinite(v) && v >= range.min && v <= range.max,
      `${name} must be between ${range.min} and ${range.max}`,
    )
    .nullable();

/**
 * A bot's own limits, checked by the server before every order the bot places, on top of the account's limits
 * (/risk). A breach stops the bot, cancels its orders and records why. null: no limit of the bot's own
 */
export const BotRiskLimitsSchema = z.strictObject({
  /** Largest notional of the bot's position after an order, USDT */
  maxNotional: limit('Max notional', { min: 1, max: 1e9 }).default(null),
  /** Largest loss of the bot in one UTC day (realized + unrealized since 00:00 UTC), USDT */
  dailyLossLimit: limit('Daily loss limit', { min: 0.01, max: 1e9 }).default(null),
  /** Largest fall of the bot's equity (budget + PnL) from its peak, percent */
  maxDrawdownPercent: limit('Max drawdown', { min: 0.01, max: 100 }).default(null),
});
export type BotRiskLimits = z.output<typeof BotRiskLimitsSchema>;

/** POST /api/v1/agents/: what a user chooses; the server validates `params` with the strategy's own schema */
export const CreateBotRequestSchema = z.strictObject({
  name: userText('name', { max: BOT_NAME_MAX_LENGTH }),
  /** A built-in strategy id (GET /api/v1/backtests/strategies lists them) */
  strategy: z.string({ error: 'strategy is required' }).trim().min(1, 'strategy is required'),
  params: z.record(z.string(), z.unknown(), { error: 'params must be an object' }).default({}),
  symbol: SymbolSchema,
  interval: KlineIntervalSchema,
  leverage: z
    .number({ error: 'leverage must be a number' })
    .int('leverage must be a whole number')
    .min(1, 'leverage must be at least 1')
    .max(MAX_EXCHANGE_LEVERAGE, `leverage must be at most ${MAX_EXCHANGE_LEVERAGE}`),
  /** USDT the bot may commit as margin; its sizing and drawdown are measured against it */
  budget: z
    .number({ error: 'budget must be a number' })
    .min(BOT_MIN_BUDGET, `budget must be at least ${BOT_MIN_BUDGET} USDT`)
    .max(BOT_MAX_BUDGET, `budget must be at most ${BOT_MAX_BUDGET} USDT`),
  mode: BotModeSchema,
  riskLimits: BotRiskLimitsSchema.prefault({}),
  /**
   * Live bots on mainnet must carry the owner's explicit confirmation (the page's warning); refused without it.
   * Ignored for paper bots and for live bots on the simulator or testnet
   */
  confirmLive: z.boolean().optional(),
});
export type CreateBotRequestInput = z.input<typeof CreateBotRequestSchema>;
export type CreateBotRequest = z.output<typeof CreateBotRequestSchema>;

/**
 * PATCH /api/v1/agents/{id}: any of the fields; a stopped, errored or paused bot changes freely, a running one as
 * `restart` says. No defaults here: a
 * field left out keeps its stored value (a partial of the create schema would reset params and limits)
 */
const createFields = CreateBotRequestSchema.shape;
export const UpdateBotRequestSchema = z.strictObject({
  name: createFields.name.optional(),
  strategy: createFields.strategy.optional(),
  params: z.record(z.string(), z.unknown(), { error: 'params must be an object' }).optional(),
  symbol: createFields.symbol.optional(),
  interval: createFields.interval.optional(),
  leverage: createFields.leverage.optional(),
  budget: createFields.budget.optional(),
  mode: createFields.mode.optional(),
  riskLimits: z
    .strictObject({
      maxNotional: BotRiskLimitsSchema.shape.maxNotional.removeDefault().optional(),
      dailyLossLimit: BotRiskLimitsSchema.shape.dailyLossLimit.removeDefault().optional(),
      maxDrawdownPercent: BotRiskLimitsSchema.shape.maxDrawdownPercent.removeDefault().optional(),
    })
    .optional(),
  confirmLive: createFields.confirmLive,
  /**
   * A running bot: its name changes at once; any other change restarts it with the new settings (its orders
   * canceled, then laid anew from the price now), and is refused (409 `RESTART_NEEDED`, naming the fields) unless
   * this is true. Its symbol, interval, mode and strategy change only once it is stopped or paused
   */
  restart: z.boolean({ error: 'restart must be true or false' }).optional(),
});
export type UpdateBotRequest = z.output<typeof UpdateBotRequestSchema>;

/** POST /api/v1/agents/{id}/clone: a stopped copy, optionally renamed */
export const CloneBotRequestSchema = z.strictObject({
  name: CreateBotRequestSchema.shape.name.optional(),
});

/**
 * POST /api/v1/agents/{id}/start: `sharePosition` starts a live bot on a symbol its account already trades (a
 * position, the trader's orders or another live bot there), which a plain start refuses with 409 SYMBOL_SHARED
 */
export const StartBotRequestSchema = z.strictObject({
  sharePosition: z.boolean('sharePosition must be true or false').optional(),
});
export type StartBotRequest = z.output<typeof StartBotRequestSchema>;

export const BotIdParamsSchema = z.object({ id: z.uuid('id must be a bot id (a UUID)') });

export const BotSchema = z.object({
  id: z.uuid(),
  kind: BotKindSchema,
  name: z.string(),
  strategy: z.string(),
  /** The parameters as the strategy's schema filled them (defaults included) */
  params: z.record(z.string(), z.unknown()),
  symbol: z.string(),
  interval: KlineIntervalSchema,
  leverage: z.number().int(),
  budget: z.number(),
  mode: BotModeSchema,
  /** Where the bot trades: the owner's environment when it was created, whatever they switch to later */
  environment: TradingEnvironmentSchema,
  riskLimits: BotRiskLimitsSchema,
  state: BotStateSchema,
  /** Why the bot last stopped, in words ("Stopped by you", "Daily loss limit reached: -52.10 USDT of 50"), or null */
  stopReason: z.string().nullable(),
  createdAt: ms,
  updatedAt: ms,
  startedAt: ms.nullable(),
  stoppedAt: ms.nullable(),
});
export type Bot = z.infer<typeof BotSchema>;

/** An order of the bot's, as the order manager knows it (live) or the paper broker (paper) */
export const BotOrderSchema = z.object({
  clientOrderId: z.string(),
  side: OrderSideSchema,
  type: z.string(),
  price: decimal.nullable(),
  quantity: decimal,
  /**
   * A conditional order's trigger (a stop, a take-profit), a trailing stop's activation price; null for the others.
   * Absent from servers before contracts 0.5.4
   */
  triggerPrice: decimal.nullable().optional(),
  /** A stop or take-profit closing the whole position, whatever its size then (its quantity says 0) */
  closePosition: z.boolean().optional(),
  /** NEW, PARTIALLY_FILLED, FILLED, CANCELED, EXPIRED, REJECTED, or UNKNOWN while the server resolves a lost answer */
  status: z.string(),
  reduceOnly: z.boolean(),
  time: ms,
});
export type BotOrder = z.infer<typeof BotOrderSchema>;

export const BOT_EVENT_KINDS = [
  'created',
  'updated',
  'started',
  'resumed',
  'stopped',
  /** Its session ended, its orders left standing (`paused`) */
  'paused',
  'signal',
  /** An outside signal (the bot's webhook) arrived: what it asked and what it caused */
  'signal_received',
  'order_sent',
  'order_filled',
  'order_canceled',
  'order_refused',
  'order_unknown',
  'risk_stop',
  /** A live bot alone on its symbol: the exchange holds another position than its own fills add up to */
  'position_drift',
  'error',
] as const;
export const BotEventKindSchema = z.enum(BOT_EVENT_KINDS);
export type BotEventKind = z.infer<typeof BotEventKindSchema>;

/** One line of a bot's log, kept in the database and pushed live to the owner (`notifications/bot`) */
export const BotEventSchema = z.object({
  id: z.string(),
  botId: z.uuid(),
  kind: BotEventKindSchema,
  /** What happened, in words a trader reads */
  message: z.string(),
  /** The figures behind it (order id, price, quantity, the limit and the value…) */
  data: z.record(z.string(), z.unknown()),
  time: ms,
});
export type BotEvent = z.infer<typeof BotEventSchema>;

/** GET /api/v1/agents/{id}/status: the bot and how it is doing now */
export const BotStatusSchema = z.object({
  bot: BotSchema,
  /** USDT: closed trades' PnL after fees and funding since the bot first started */
  realizedPnl: z.number(),
  unrealizedPnl: z.number(),
  /** Realized since 00:00 UTC + unrealized now */
  todayPnl: z.number(),
  /** Signed position quantity (positive long, negative short, 0 flat) */
  positionQty: z.number(),
  entryPrice: z.number().nullable(),
  markPrice: z.number().nullable(),
  openOrders: z.array(BotOrderSchema),
  /** ms the bot has been running since its last start; null when it is not running */
  uptimeMs: ms.nullable(),
  /** Newest first */
  lastEvents: z.array(BotEventSchema),
});
export type BotStatus = z.infer<typeof BotStatusSchema>;

/** A candle of a bot's chart: its symbol and interval, open time in ms */
export const BotCandleSchema = z.object({
  time: ms,
  open: z.number(),
  high: z.number(),
  low: z.number(),
  close: z.number(),
});
export type BotCandle = z.infer<typeof BotCandleSchema>;

/** One fill of the bot, from its log (paper and live alike) */
export const BotFillSchema = z.object({
  /** When it filled, ms */
  time: ms,
  side: OrderSideSchema,
  price: z.number(),
  quantity: z.number(),
  /** Paid, USDT (a BNB fee converted at the fill's minute) */
  fee: z.number(),
  /** Closed PnL of the fill before its fee, USDT */
  realizedPnl: z.number(),
  /** Signed position after it */
  positionAfter: z.number(),
});
export type BotFill = z.infer<typeof BotFillSchema>;

/** The bot's PnL at a candle's close: realized (after fees) + unrealized of the position it then held */
export const BotPnlPointSchema = z.object({
  time: ms,
  realized: z.number(),
  unrealized: z.number(),
  total: z.number(),
});
export type BotPnlPoint = z.infer<typeof BotPnlPointSchema>;

/**
 * GET /api/v1/agents/{id}/performance: the bot's own story on its symbol's candles since its first fill (or its
 * first start), the newest `BOT_CHART_BARS` candles at most: its fills, and its PnL curve from them. Funding is not
 * in the curve (its PnL figures carry it)
 */
export const BotPerformanceSchema = z.object({
  symbol: z.string(),
  interval: KlineIntervalSchema,
  /** The window the candles cover, open time of the first to close time of the last, ms */
  from: ms,
  to: ms,
  candles: z.array(BotCandleSchema),
  /** The fills inside the window, oldest first */
  fills: z.array(BotFillSchema),
  /** One point per candle close, then one at the last price now */
  curve: z.array(BotPnlPointSchema),
  /** Fills before the window: counted in the curve's starting point, not drawn */
  earlierFills: z.number().int(),
});
export type BotPerformance = z.infer<typeof BotPerformanceSchema>;
/** The candles a bot's chart shows at most */
export const BOT_CHART_BARS = 500;

/** POST /api/v1/agents/plan: the orders a bot with these settings would place, before it is saved */
export const BotPlanRequestSchema = CreateBotRequestSchema.pick({
  strategy: true,
  params: true,
  symbol: true,
  leverage: true,
  budget: true,
});
export type BotPlanRequest = z.output<typeof BotPlanRequestSchema>;

/** One order of the plan, rounded to the symbol's step as the exchange would take it */
export const BotPlanOrderSchema = z.object({
  /** In the words of the form: "the level at 49,000", "safety order 2" */
  what: z.string(),
  side: OrderSideSchema,
  price: z.number(),
  quantity: z.number(),
  /** USDT at its price */
  notional: z.number(),
  reduceOnly: z.boolean(),
  /** Placed only after a fill (a grid's counter-order on its starting level): not in the margin of the start */
  later: z.boolean(),
});
export type BotPlanOrder = z.infer<typeof BotPlanOrderSchema>;

export const BotPlanSchema = z.object({
  /** The symbol's last price the plan was drawn at */
  price: z.number(),
  baseAsset: z.string(),
  orders: z.array(BotPlanOrderSchema),
  /** USDT of the opening orders standing at the start, buys and sells apart */
  buyNotional: z.number(),
  sellNotional: z.number(),
  /** The margin they hold at the bot's leverage (the larger side), against its budget */
  margin: z.number(),
  /** The regular fee rates the figures use (fractions) */
  feeRates: z.object({ maker: z.number(), taker: z.number() }),
  /** A grid's round trip between neighbouring levels after both fees, USDT and share of its notional; else null */
  levelProfit: z
    .object({ minNet: z.number(), maxNet: z.number(), minNetPct: z.number(), maxNetPct: z.number() })
    .nullable(),
  /** What the exchange would refuse (a save is refused for the same), each with the smallest value that works */
  problems: z.array(z.object({ param: z.string(), message: z.string(), smallest: z.number().optional() })),
});
export type BotPlan = z.infer<typeof BotPlanSchema>;

/** GET /api/v1/agents/{id}/events: the log, newest first, paged by `before` (an event time, ms) */
export const BotEventsQuerySchema = z.object({
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export const BotResponseSchema = okResponse(BotSchema);
export const BotListResponseSchema = okResponse(z.array(BotSchema));
/** `GET /api/v1/agents/suggestion`: a strategy, a symbol, and the leverage and budget chosen so far */
export const BotSuggestionQuerySchema = z.object({
  strategy: z.string().trim().min(1, 'strategy is required'),
  symbol: SymbolSchema,
  leverage: z.coerce.number().int().min(1).max(125).default(3),
  budget: z.coerce.number().min(10).max(10_000_000).default(100),
});

/**
 * A new bot's starting values from the market now: the strategy's parameters (a grid's range around the price,
 * sizes the exchange takes) and the budget its orders need, every order of them passing the symbol's rules
 */
export const BotSuggestionSchema = z.object({
  /** The symbol's last price the values were drawn at */
  price: z.number(),
  params: z.record(z.string(), z.unknown()),
  /** The budget asked for, or the smallest one its orders need when that is more */
  budget: z.number(),
  /** What the values were drawn from, in words ("BTCUSDT at 64012.3; its last 24 h 62100–65400") */
  basis: z.string(),
  /** What was raised to pass the exchange's rules, each in words; empty when the defaults passed */
  adjusted: z.array(z.string()),
});
export type BotSuggestion = z.infer<typeof BotSuggestionSchema>;

export const BotStatusResponseSchema = okResponse(BotStatusSchema);
export const BotSuggestionResponseSchema = okResponse(BotSuggestionSchema);
export const BotEventsResponseSchema = okResponse(z.array(BotEventSchema));
export const BotPerformanceResponseSchema = okResponse(BotPerformanceSchema);
export const BotPlanResponseSchema = okResponse(BotPlanSchema);
