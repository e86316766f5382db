import {
  type CreateOrderRequest,
  CreateOrderRequestSchema,
  type OrderSideSchema,
  type SymbolInfo,
} from '@kestrel/contracts';
import { z } from 'zod';
import { compareDecimal, isDecimal, isMultipleOf, multiplyDecimal } from './decimal';

/** The order types the ticket offers; the contract knows more (STOP, TAKE_PROFIT, trailing stops) */
export const TICKET_TYPES = ['LIMIT', 'MARKET', 'STOP_MARKET', 'TAKE_PROFIT_MARKET'] as const;
export type TicketType = (typeof TICKET_TYPES)[number];

export const TICKET_TYPE_LABELS: Record<TicketType, string> = {
  LIMIT: 'Limit',
  MARKET: 'Market',
  STOP_MARKET: 'Stop market',
  TAKE_PROFIT_MARKET: 'Take-profit market',
};

/** What the ticket's fields hold: text as typed, turned into the contract's request on submit */
export interface TicketValues {
  symbol: string;
  side: z.infer<typeof OrderSideSchema>;
  type: TicketType;
  quantity: string;
  price: string;
  triggerPrice: string;
  reduceOnly: boolean;
}

export const defaultTicketValues = (symbol: string): TicketValues => ({
  symbol,
  side: 'BUY',
  type: 'LIMIT',
  quantity: '',
  price: '',
  triggerPrice: '',
  reduceOnly: false,
});

/** Which fields a type asks for */
export const needsPrice = (type: TicketType) => type === 'LIMIT';
export const needsTrigger = (type: TicketType) => type === 'STOP_MARKET' || type === 'TAKE_PROFIT_MARKET';

/** The request the ticket sends: only the fields its type takes, a limit order good till canceled */
export function toOrderRequest(values: TicketValues): CreateOrderRequest {
  // An empty field is left out, so the contract names what is missing ("price is required for a LIMIT order")
  const text = (s: string) => s.trim() || undefined;
  const price = text(values.price);
  const triggerPrice = text(values.triggerPrice);
  return {
    symbol: values.symbol.trim().toUpperCase(),
    side: values.side,
    type: values.type,
    ...(text(values.quantity) ? { quantity: text(values.quantity) } : {}),
    ...(needsPrice(values.type) ? { timeInForce: 'GTC' as const, ...(price ? { price } : {}) } : {}),
    ...(needsTrigger(values.type) && triggerPrice ? { triggerPrice } : {}),
    ...(values.reduceOnly ? { reduceOnly: true } : {}),
  };
}

/**
 * The symbol's trading rules (Binance's PRICE_FILTER, LOT_SIZE, MIN_NOTIONAL) as messages naming the rule broken,
 * by field. A market order's value is left to the exchange: the browser does not know the price it will fill at.
 */
export function filterIssues(
  order: CreateOrderRequest,
  info: SymbolInfo,
): { path: 'quantity' | 'price' | 'triggerPrice'; message: string }[] {
  const issues: { path: 'quantity' | 'price' | 'triggerPrice'; message: string }[] = [];
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

/**
 * The ticket's rule: the contract's CreateOrderRequestSchema (the server's own check), then the symbol's filters
 * when its rules are loaded. The output is the request to send.
 */
export function ticketSchema(info: SymbolInfo | undefined) {
  return z
    .object({
      symbol: z.string(),
      side: z.enum(['BUY', 'SELL']),
      type: z.enum(TICKET_TYPES),
      quantity: z.string(),
      price: z.string(),
      triggerPrice: z.string(),
      reduceOnly: z.boolean(),
    })
    .transform(toOrderRequest)
    .pipe(CreateOrderRequestSchema)
    .superRefine((order, ctx) => {
      if (!info || info.symbol !== order.symbol) return;
      for (const issue of filterIssues(order, info)) {
        ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
      }
    });
}
