import {
  type CreateOrderRequest,
  type OrderSideSchema,
  type PlaceOrderRequest,
  PlaceOrderRequestSchema,
  type SymbolInfo,
} from '@kestrel/contracts';
import { formatPrice } from '@kestrel/ui';
import { z } from 'zod';
import { compareDecimal, floorToStep, isDecimal, isMultipleOf, multiplyDecimal } from './decimal';

/** The order types the ticket offers; the contract knows more (STOP and TAKE_PROFIT with a limit price) */
export const TICKET_TYPES = [
  'LIMIT',
  'MARKET',
  'STOP_MARKET',
  'TAKE_PROFIT_MARKET',
  'TRAILING_STOP_MARKET',
] as const;
export type TicketType = (typeof TICKET_TYPES)[number];

export const TICKET_TYPE_LABELS: Record<TicketType, string> = {
  LIMIT: 'Limit',
  MARKET: 'Market',
  STOP_MARKET: 'Stop market',
  TAKE_PROFIT_MARKET: 'Take-profit market',
  TRAILING_STOP_MARKET: 'Trailing stop',
};

/** How long a limit order works, as Binance names it; post-only (GTX) is refused rather than taking liquidity */
export const TICKET_TIMES_IN_FORCE = ['GTC', 'IOC', 'FOK', 'GTX'] as const;
export type TicketTimeInForce = (typeof TICKET_TIMES_IN_FORCE)[number];
export const TIME_IN_FORCE_LABELS: Record<TicketTimeInForce, string> = {
  GTC: 'Good till canceled (GTC)',
  IOC: 'Immediate or cancel (IOC)',
  FOK: 'Fill or kill (FOK)',
  GTX: 'Post-only (GTX)',
};

/** What the ticket's fields hold: text as typed, turned into the contract's request on submit */
export interface TicketValues {
  symbol: string;
  side: z.infer<typeof OrderSideSchema>;
  type: TicketType;
  quantity: string;
  price: string;
  triggerPrice: string;
  timeInForce: TicketTimeInForce;
  reduceOnly: boolean;
  /** Attached to an entry: mark prices at which the position it opens is closed (empty: none) */
  takeProfit: string;
  stopLoss: string;
  /** A trailing stop's callback rate (percent, 0.1 to 10) and the price it starts trailing at (empty: at once) */
  callbackRate: string;
  activationPrice: string;
}

export const defaultTicketValues = (symbol: string): TicketValues => ({
  symbol,
  side: 'BUY',
  type: 'LIMIT',
  quantity: '',
  price: '',
  triggerPrice: '',
  timeInForce: 'GTC',
  reduceOnly: false,
  takeProfit: '',
  stopLoss: '',
  callbackRate: '',
  activationPrice: '',
});

/** Which fields a type asks for */
export const needsPrice = (type: TicketType) => type === 'LIMIT';
export const needsTrigger = (type: TicketType) => type === 'STOP_MARKET' || type === 'TAKE_PROFIT_MARKET';
export const isTrailing = (type: TicketType) => type === 'TRAILING_STOP_MARKET';

/**
 * Whether the order is an entry a TP/SL can be attached to: a limit or market order that may open a position (the
 * server places them once it fills)
 */
export const takesProtection = (type: TicketType, reduceOnly: boolean) =>
  (type === 'LIMIT' || type === 'MARKET') && !reduceOnly;

/**
 * The request the ticket sends: only the fields its type takes (a limit order's time in force, an entry's TP/SL)
 */
export function toOrderRequest(values: TicketValues): PlaceOrderRequest {
  // An empty field is left out, so the contract names what is missing ("price is required for a LIMIT order")
  const text = (s: string) => s.trim() || undefined;
  const price = text(values.price);
  const triggerPrice = text(values.triggerPrice);
  const callbackRate = text(values.callbackRate);
  const activationPrice = text(values.activationPrice);
  return {
    symbol: values.symbol.trim().toUpperCase(),
    side: values.side,
    type: values.type,
    ...(text(values.quantity) ? { quantity: text(values.quantity) } : {}),
    ...(needsPrice(values.type) ? { timeInForce: values.timeInForce, ...(price ? { price } : {}) } : {}),
    ...(needsTrigger(values.type) && triggerPrice ? { triggerPrice } : {}),
    ...(isTrailing(values.type) && callbackRate ? { callbackRate } : {}),
    ...(isTrailing(values.type) && activationPrice ? { activationPrice } : {}),
    ...(values.reduceOnly ? { reduceOnly: true } : {}),
    ...protectionOf(values),
  };
}

/**
 * The order the server can estimate from the figures typed so far: the request `toOrderRequest` would send, if it is
 * a limit order with its price or a market order, with a quantity; without its TP/SL (they do not change the
 * estimate). Undefined until then
 */
export function previewRequest(values: Partial<TicketValues>): CreateOrderRequest | undefined {
  if (values.type !== 'LIMIT' && values.type !== 'MARKET') return undefined;
  if (!values.side || !values.symbol?.trim()) return undefined;
  // A field the form has not reported yet takes the ticket's default, never `undefined`
  const typed = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
  const { protection: _, ...order } = toOrderRequest({ ...defaultTicketValues(values.symbol), ...typed });
  const positive = (figure: string | undefined) =>
    figure !== undefined && isDecimal(figure) && Number(figure) > 0;
  if (!positive(order.quantity)) return undefined;
  if (order.type === 'LIMIT' && !positive(order.price)) return undefined;
  return order;
}

function protectionOf(values: TicketValues): Pick<PlaceOrderRequest, 'protection'> {
  if (!takesProtection(values.type, values.reduceOnly)) return {};
  const takeProfit = values.takeProfit.trim();
  const stopLoss = values.stopLoss.trim();
  if (!takeProfit && !stopLoss) return {};
  return {
    protection: { ...(takeProfit ? { takeProfit } : {}), ...(stopLoss ? { stopLoss } : {}) },
  };
}

/**
 * What is wrong with an entry's TP/SL: each a multiple of the tick, a long's take-profit above the entry's price
 * and its stop-loss below (a short's the other way round), where the price is the limit price or, for a market
 * entry, the mark. The other way round it would fire the moment it is placed
 */
export function protectionIssues(
  order: PlaceOrderRequest,
  info: SymbolInfo | undefined,
  mark: string | undefined,
): { path: 'takeProfit' | 'stopLoss'; message: string }[] {
  const issues: { path: 'takeProfit' | 'stopLoss'; message: string }[] = [];
  const p = order.protection;
  if (!p) return issues;
  const reference = order.type === 'LIMIT' ? order.price : mark;
  const long = order.side === 'BUY';
  const what = order.type === 'LIMIT' ? 'the limit price' : 'the mark price';
  for (const [path, label] of [
    ['takeProfit', 'Take-profit'],
    ['stopLoss', 'Stop-loss'],
  ] as const) {
    const trigger = p[path];
    if (trigger === undefined) continue;
    if (info && !isMultipleOf(trigger, info.tickSize)) {
      issues.push({
        path,
        message: `${label} must be a multiple of ${info.symbol}'s tick size ${info.tickSize}`,
      });
      continue;
    }
    if (reference === undefined || !isDecimal(reference)) continue;
    const above = path === 'takeProfit' ? long : !long;
    const cmp = compareDecimal(trigger, reference);
    if (above && cmp <= 0)
      issues.push({ path, message: `${label} of a ${long ? 'long' : 'short'} must be above ${what}` });
    if (!above && cmp >= 0)
      issues.push({ path, message: `${label} of a ${long ? 'long' : 'short'} must be below ${what}` });
  }
  return issues;
}

/**
 * The symbol's trading rules (Binance's PRICE_FILTER, LOT_SIZE, MIN_NOTIONAL) as messages naming the rule broken,
 * by field. A market order's value is left to the exchange: the browser does not know the price it will fill at.
 */
export function filterIssues(
  order: CreateOrderRequest,
  info: SymbolInfo,
): { path: 'quantity' | 'price' | 'triggerPrice' | 'activationPrice'; message: string }[] {
  const issues: { path: 'quantity' | 'price' | 'triggerPrice' | 'activationPrice'; message: string }[] = [];
  const { symbol, stepSize, tickSize, minQuantity, maxQuantity, minNotional, quoteAsset } = info;
  const quantity = order.quantity;
  if (quantity !== undefined && isDecimal(quantity)) {
    if (compareDecimal(quantity, minQuantity) < 0) {
      issues.push({
        path: 'quantity',
        message: `Quantity must be at least ${symbol}'s minimum quantity ${minQuantity}`,
      });
    } else if (compareDecimal(quantity, maxQuantity) > 0) {
      issues.push({
        path: 'quantity',
        message: `Quantity must be at most ${symbol}'s maximum quantity ${maxQuantity}`,
      });
    } else if (!isMultipleOf(quantity, stepSize)) {
      issues.push({
        path: 'quantity',
        message: `Quantity must be a multiple of ${symbol}'s step size ${stepSize}`,
      });
    }
  }
  for (const [path, label] of [
    ['price', 'Price'],
    ['triggerPrice', 'Trigger price'],
    ['activationPrice', 'Activation price'],
  ] as const) {
    const price = order[path];
    if (price !== undefined && isDecimal(price) && !isMultipleOf(price, tickSize)) {
      issues.push({ path, message: `${label} must be a multiple of ${symbol}'s tick size ${tickSize}` });
    }
  }
  if (
    issues.length === 0 &&
    order.type === 'LIMIT' &&
    !order.reduceOnly &&
    order.price !== undefined &&
    quantity !== undefined &&
    isDecimal(order.price) &&
    isDecimal(quantity)
  ) {
    const notional = multiplyDecimal(order.price, quantity);
    if (compareDecimal(notional, minNotional) < 0) {
      issues.push({
        path: 'quantity',
        message: `Order value ${Number(notional).toFixed(2)} ${quoteAsset} is below ${symbol}'s minimum notional ${minNotional} ${quoteAsset} (price × quantity)`,
      });
    }
  }
  return issues;
}

/** An entry's TP/SL field: a price, or empty for none */
const optionalTrigger = z.string().refine((s) => s.trim() === '' || (isDecimal(s.trim()) && Number(s) > 0), {
  message: 'Enter a price greater than 0, or leave it empty',
});

/**
 * The ticket's rule: the contract's PlaceOrderRequestSchema (the server's own check), then the symbol's filters
 * when its rules are loaded, and an entry's TP/SL against its price (`mark`: a market entry's). The output is the
 * request to send.
 */
export function ticketSchema(info: SymbolInfo | undefined, mark?: string) {
  return z
    .object({
      symbol: z.string(),
      side: z.enum(['BUY', 'SELL']),
      type: z.enum(TICKET_TYPES),
      quantity: z.string(),
      price: z.string(),
      triggerPrice: z.string(),
      timeInForce: z.enum(TICKET_TIMES_IN_FORCE),
      reduceOnly: z.boolean(),
      takeProfit: optionalTrigger,
      stopLoss: optionalTrigger,
      callbackRate: z.string(),
      activationPrice: optionalTrigger,
    })
    .transform(toOrderRequest)
    .pipe(PlaceOrderRequestSchema)
    .superRefine((order, ctx) => {
      const rules = info?.symbol === order.symbol ? info : undefined;
      const issues = [...(rules ? filterIssues(order, rules) : []), ...protectionIssues(order, rules, mark)];
      for (const issue of issues)
        ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
    });
}

/**
 * The quantity an order of `value` (quote asset) buys at `price`, rounded down to the lot step; undefined while
 * either is not a positive number
 */
export function quantityForValue(value: string, price: string, stepSize: string): string | undefined {
  if (!isDecimal(value) || !isDecimal(price) || !(Number(price) > 0)) return undefined;
  return floorToStep(Number(value) / Number(price), stepSize);
}

/**
 * The value an order may take when it uses `percent` of the available margin at `leverage` (Binance's initial
 * margin is value / leverage, so the value is margin × leverage), as a decimal string with cents
 */
export function valueForMarginShare(
  available: string,
  percent: number,
  leverage: number,
): string | undefined {
  const margin = Number(available);
  if (!(margin > 0) || !(leverage > 0) || !(percent > 0)) return undefined;
  return (Math.floor(((margin * percent) / 100) * leverage * 100) / 100).toFixed(2);
}

/**
 * The review's words for an entry's TP/SL: "; once it fills, a take-profit at 52,000.0 and a stop-loss at 48,000.0
 * close the whole position at market when the mark price reaches them" (empty without any)
 */
export function describeEntryProtection(order: PlaceOrderRequest, precision: number | undefined): string {
  const p = order.protection;
  if (!p) return '';
  const at = (v: string) => formatPrice(Number(v), { precision });
  const parts = [
    ...(p.takeProfit ? [`a take-profit at ${at(p.takeProfit)}`] : []),
    ...(p.stopLoss ? [`a stop-loss at ${at(p.stopLoss)}`] : []),
  ];
  const them = parts.length > 1 ? 'them' : 'it';
  return `; once it fills, ${parts.join(' and ')} ${parts.length > 1 ? 'close' : 'closes'} the whole position at market when the mark price reaches ${them}`;
}
