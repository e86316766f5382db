/**
 * Binance's REST answers as the adapter reads them, checked at the edge: every field the adapter uses is declared
 * here with its wire type, and an answer that does not match becomes an `ExchangeResponseError` naming the field.
 * Decimals stay strings (checked to be decimals), ids become decimal strings, times are integers (ms). Fields
 * Binance documents as optional are optional here too; nothing missing is replaced by a made-up value.
 */
import { OrderSideSchema, PositionSideSchema, WorkingTypeSchema } from '@kestrel/contracts';
import { z } from 'zod';
import { ExchangeResponseError } from './exchange-adapter';

/** The error text of a field: "missing" when absent, else what was expected */
const expected =
  (what: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined ? `missing (expected ${what})` : `expected ${what}`;

const DECIMAL = /^-?\d+(\.\d+)?$/;
const DIGITS = /^\d+$/;

/** A decimal as Binance writes it: "0.00100000", "-1.5" (no exponent) */
export const decimal = z
  .string({ error: expected('a decimal string') })
  .regex(DECIMAL, { error: expected('a decimal string') });
/** Binance writes "" in a decimal field that does not apply (algo orders) */
export const decimalOrEmpty = z.union([z.literal(''), decimal], {
  error: expected('a decimal string or ""'),
});

const idError = expected('an integer id');
/** An id: a bare integer (a decimal string past 2^53, see json-bigint.ts), always handed on as a decimal string */
export const id = z
  .union(
    [
      z.number({ error: idError }).int({ error: idError }).nonnegative({ error: idError }),
      z.string({ error: idError }).regex(DIGITS, { error: idError }),
    ],
    { error: idError },
  )
  .transform(String);
/** An id that is "" until it exists (the order a conditional order placed) */
export const idOrEmpty = z.union([z.literal(''), id], { error: expected('an integer id or ""') });

const timeError = expected('a time in ms');
/** ms since epoch */
export const time = z
  .number({ error: timeError })
  .int({ error: timeError })
  .nonnegative({ error: timeError });

const countError = expected('a whole number');
export const count = z
  .number({ error: countError })
  .int({ error: countError })
  .nonnegative({ error: countError });
/** A number of a table (leverage brackets): finite */
export const tableNumber = z.number({ error: expected('a number') });
export const flag = z.boolean({ error: expected('true or false') });
export const text = z.string({ error: expected('a string') });
export const symbol = z.string({ error: expected('a symbol') }).min(1, { error: expected('a symbol') });

export const side = z.enum(OrderSideSchema.options, { error: expected('BUY or SELL') });
export const positionSide = z.enum(PositionSideSchema.options, { error: expected('BOTH, LONG or SHORT') });
export const workingType = z.enum(WorkingTypeSchema.options, {
  error: expected('MARK_PRICE or CONTRACT_PRICE'),
});

const ORDER_STATUSES = [
  'NEW',
  'PARTIALLY_FILLED',
  'FILLED',
  'CANCELED',
  'REJECTED',
  'EXPIRED',
  'EXPIRED_IN_MATCH',
] as const;
/** A plain order's status; EXPIRED_IN_MATCH (expired by self-trade prevention) is an EXPIRED order to us */
export const orderStatus = z
  .enum(ORDER_STATUSES, { error: expected(ORDER_STATUSES.join(', ')) })
  .transform((s) => (s === 'EXPIRED_IN_MATCH' ? 'EXPIRED' : s));

const ALGO_STATUSES = [
  'NEW',
  'TRIGGERING',
  'TRIGGERED',
  'FINISHED',
  'CANCELED',
  'REJECTED',
  'EXPIRED',
] as const;
/** A conditional order's status; TRIGGERING (fired, its order being placed) is TRIGGERED to us */
export const algoStatus = z
  .enum(ALGO_STATUSES, { error: expected(ALGO_STATUSES.join(', ')) })
  .transform((s) => (s === 'TRIGGERING' ? 'TRIGGERED' : s));

/** Texts of zod's own issues (a missing or mistyped object or array) in the same words as the fields' */
function wireIssueText(issue: { code: string; input?: unknown; expected?: unknown }): string | undefined {
  if (issue.code !== 'invalid_type') return undefined;
  const what = String(issue.expected);
  const words =
    what === 'array' || what === 'tuple' ? 'a list' : what === 'object' ? 'an object' : `a ${what}`;
  return expected(words)(issue);
}

/** `[0].markPrice` from zod's path */
function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`))
    .join('');
}

/**
 * `value` checked against `schema`, typed; otherwise an ExchangeResponseError naming `source` and each failing
 * field. `at` is where `value` sits in the answer, when only a part of it is read
 */
export function readAnswer<S extends z.ZodType>(
  source: string,
  schema: S,
  value: unknown,
  at: readonly PropertyKey[] = [],
): z.output<S> {
  const result = schema.safeParse(value, { error: wireIssueText });
  if (result.success) return result.data;
  throw new ExchangeResponseError(
    source,
    result.error.issues.map((issue) => ({
      path: formatPath([...at, ...issue.path]),
      message: issue.message,
    })),
  );
}

/** An answer whose content the adapter does not read (ping, listenKey keepalive and close) */
export const IgnoredAnswer = z.unknown();

/** A refusal: `{"code":-1121,"msg":"Invalid symbol."}` */
export const ErrorBodySchema = z.object({ code: z.number(), msg: z.string() });

/** GET /fapi/v1/time */
export const ServerTimeSchema = z.object({ serverTime: time });

/** GET /fapi/v1/ticker/24hr with a symbol */
export const Ticker24hSchema = z.object({
  symbol,
  lastPrice: decimal,
  priceChange: decimal,
  priceChangePercent: decimal,
  highPrice: decimal,
  lowPrice: decimal,
  volume: decimal,
  quoteVolume: decimal,
  openTime: time,
  closeTime: time,
});

/** GET /fapi/v2/ticker/price with a symbol */
export const TickerPriceSchema = z.object({ symbol, price: decimal, time });

/** GET /fapi/v1/klines: `[openTime, o, h, l, c, volume, closeTime, quoteVolume, trades, …]` */
export const KlinesSchema = z.array(
  z.tuple([time, decimal, decimal, decimal, decimal, decimal, time, decimal, count]).rest(z.unknown()),
);

const level = z.tuple([decimal, decimal]);
/** GET /fapi/v1/depth (`E`/`T` are the futures answer's message and transaction times) */
export const DepthSchema = z.object({
  lastUpdateId: count,
  E: time,
  T: time,
  bids: z.array(level),
  asks: z.array(level),
});

/** GET /fapi/v1/aggTrades */
export const AggTradesSchema = z.array(
  z.object({ a: count, p: decimal, q: decimal, f: count, l: count, T: time, m: flag }),
);

/** GET /fapi/v1/fundingRate */
export const FundingRatesSchema = z.array(z.object({ symbol, fundingTime: time, fundingRate: decimal }));

/** GET /fapi/v3/account (v3 positions carry no entry, mark or liquidation price) */
export const AccountSchema = z.object({
  totalWalletBalance: decimal,
  totalUnrealizedProfit: decimal,
  totalMarginBalance: decimal,
  totalInitialMargin: decimal,
  totalMaintMargin: decimal,
  availableBalance: decimal,
  assets: z.array(
    z.object({
      asset: text,
      walletBalance: decimal,
      unrealizedProfit: decimal,
      marginBalance: decimal,
      availableBalance: decimal,
    }),
  ),
  positions: z.array(
    z.object({
      symbol,
      positionSide,
      positionAmt: decimal,
      unrealizedProfit: decimal,
      notional: decimal,
      initialMargin: decimal,
      maintMargin: decimal,
      updateTime: time,
    }),
  ),
});

/** GET /sapi/v1/account/apiRestrictions (wallet host) */
export const ApiRestrictionsSchema = z.object({
  enableReading: flag,
  enableFutures: flag,
  enableWithdrawals: flag,
  ipRestrict: flag,
});

/** GET /fapi/v1/positionSide/dual */
export const PositionModeSchema = z.object({ dualSidePosition: flag });

/** GET /fapi/v1/accountConfig */
export const AccountConfigSchema = z.object({ canTrade: flag, canWithdraw: flag });

/** GET /fapi/v3/positionRisk */
export const PositionRiskSchema = z.array(
  z.object({
    symbol,
    positionSide,
    positionAmt: decimal,
    entryPrice: decimal,
    markPrice: decimal,
    unRealizedProfit: decimal,
    liquidationPrice: decimal,
    notional: decimal,
    initialMargin: decimal,
    /** initialMargin without the margin of the symbol's open orders */
    positionInitialMargin: decimal,
    maintMargin: decimal,
    updateTime: time,
  }),
);

/**
 * A plain order (order, openOrders, allOrders, cancel). Binance's 2026 SDK dropped `avgPrice` and `cumQuote` from
 * the order and cancel answers, so `avgPrice` may be absent, but only while nothing was executed (then it is 0)
 */
export const OrderSchema = z
  .object({
    orderId: id,
    clientOrderId: text,
    symbol,
    side,
    type: text,
    status: orderStatus,
    price: decimal,
    avgPrice: decimal.optional(),
    origQty: decimal,
    executedQty: decimal,
    timeInForce: text,
    reduceOnly: flag,
    positionSide,
    stopPrice: decimal,
    /** Absent from some answers (the documented GET /fapi/v1/order); 0 when not a GTD order */
    goodTillDate: time.optional(),
    updateTime: time,
  })
  .superRefine((order, ctx) => {
    if (order.avgPrice === undefined && Number(order.executedQty) !== 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['avgPrice'],
        message: 'missing (expected a decimal string, the order was executed)',
      });
    }
  });
export const OrdersSchema = z.array(OrderSchema);
/** GET /fapi/v1/allOrders also writes when each order was placed */
export const PlacedOrdersSchema = z.array(z.intersection(OrderSchema, z.object({ time })));

/**
 * A conditional order (algoOrder, openAlgoOrders, allAlgoOrders). Fields that do not apply are "" (or absent:
 * the GET answers have no activatePrice/callbackRate, the POST answer no actualOrderId/actualPrice)
 */
export const AlgoOrderSchema = z.object({
  algoId: id,
  clientAlgoId: text,
  orderType: text,
  symbol,
  side,
  positionSide,
  timeInForce: text,
  quantity: decimal,
  algoStatus,
  triggerPrice: decimal,
  price: decimal,
  workingType,
  closePosition: flag,
  reduceOnly: flag,
  activatePrice: decimalOrEmpty.optional(),
  callbackRate: decimalOrEmpty.optional(),
  actualOrderId: idOrEmpty.optional(),
  actualPrice: decimalOrEmpty.optional(),
  goodTillDate: time.optional(),
  updateTime: time,
});
export const AlgoOrdersSchema = z.array(AlgoOrderSchema);

/** DELETE /fapi/v1/algoOrder: ids only */
export const CanceledAlgoOrderSchema = z.object({ algoId: id });

/** GET /fapi/v1/userTrades */
export const UserTradesSchema = z.array(
  z.object({
    id,
    orderId: id,
    symbol,
    side,
    positionSide,
    price: decimal,
    qty: decimal,
    quoteQty: decimal,
    realizedPnl: decimal,
    commission: decimal,
    commissionAsset: text,
    maker: flag,
    time,
  }),
);

/** GET /fapi/v1/exchangeInfo, as far as finding one symbol goes: only that symbol is read further */
export const ExchangeInfoSchema = z.object({ symbols: z.array(z.looseObject({ symbol: text })) });

/** One symbol of exchangeInfo; its filters are read by type (`PriceFilterSchema`, …) */
export const ExchangeSymbolSchema = z.object({
  symbol,
  status: text,
  baseAsset: text,
  quoteAsset: text,
  pricePrecision: count,
  quantityPrecision: count,
  filters: z.array(z.looseObject({ filterType: text })),
  orderTypes: z.array(text),
});
export const PriceFilterSchema = z.object({ tickSize: decimal });
export const LotSizeFilterSchema = z.object({ stepSize: decimal, minQty: decimal, maxQty: decimal });
/** The field is `notional` (spot's is `minNotional`) */
export const MinNotionalFilterSchema = z.object({ notional: decimal });

/**
 * GET /fapi/v1/income; `symbol` is "" for account-wide entries (transfers). `tranId` is unique per income type and
 * account (Binance: "tranId is unique in the same incomeType for a user"); `tradeId` is "" unless a fill booked it
 */
export const IncomeSchema = z.array(
  z.object({
    symbol: text,
    incomeType: text,
    income: decimal,
    asset: text,
    info: text,
    time,
    tranId: id,
    tradeId: text,
  }),
);

const BracketEntrySchema = z.object({
  symbol,
  brackets: z.array(
    z.object({
      bracket: count,
      initialLeverage: count,
      notionalFloor: tableNumber,
      notionalCap: tableNumber,
      maintMarginRatio: tableNumber,
      cum: tableNumber,
    }),
  ),
});
/** GET /fapi/v1/leverageBracket: documented as one object for a symbol, answered as an array of one */
export const LeverageBracketsSchema = z.preprocess(
  (reply) => (Array.isArray(reply) ? reply : [reply]),
  z.array(BracketEntrySchema),
);

/** POST /fapi/v1/leverage */
export const LeverageSchema = z.object({ symbol, leverage: count });
/** POST /fapi/v1/marginType and POST /fapi/v1/positionMargin: `{"code":200,"msg":"success"}` */
export const CodeAnswerSchema = z.object({ code: z.number(), msg: z.string() });
/** GET /fapi/v1/symbolConfig: one entry per symbol asked */
export const SymbolConfigsSchema = z.array(
  z.object({
    symbol,
    marginType: z.enum(['CROSSED', 'ISOLATED'], { error: expected('CROSSED or ISOLATED') }),
    leverage: count,
    maxNotionalValue: decimal,
  }),
);

/** POST /fapi/v1/countdownCancelAll: Binance echoes the countdown as a string of ms ("0" when disarmed) */
export const CountdownCancelAllSchema = z.object({
  symbol,
  countdownTime: z.union([count, z.string().regex(/^\d+$/, { error: expected('a whole number') })]),
});

/** POST /fapi/v1/listenKey */
export const ListenKeySchema = z.object({
  listenKey: z.string({ error: expected('a listen key') }).min(1, { error: expected('a listen key') }),
});

/** A plain order as read from the wire */
export type WireOrder = z.output<typeof OrderSchema>;
/** A conditional order as read from the wire */
export type WireAlgoOrder = z.output<typeof AlgoOrderSchema>;
/** A position of positionRisk as read from the wire */
export type WirePosition = z.output<typeof PositionRiskSchema>[number];
