import type { CreateOrderRequest, FuturesOrder, FuturesPosition } from '@kestrel/contracts';
import { formatPrice, formatQuantity, stepDecimals } from '@kestrel/ui';
import { floorToStep } from './decimal';

/** Decimals of a symbol's prices and sizes, from its tick size and lot step when known */
export interface Precision {
  price?: number | undefined;
  quantity?: number | undefined;
}

export function precisionOf(info: { tickSize: string; stepSize: string } | undefined): Precision {
  return info ? { price: stepDecimals(info.tickSize), quantity: stepDecimals(info.stepSize) } : {};
}

const price = (value: string, p: Precision) => formatPrice(Number(value), { precision: p.price });
const size = (value: string, p: Precision) =>
  formatQuantity(Math.abs(Number(value)), { precision: p.quantity });
const sideWord = (side: 'BUY' | 'SELL') => (side === 'BUY' ? 'Buy' : 'Sell');

/** Long or short: the position side in hedge mode, else the sign of the amount */
export function positionDirection(
  position: Pick<FuturesPosition, 'amount' | 'positionSide'>,
): 'long' | 'short' {
  if (position.positionSide === 'LONG') return 'long';
  if (position.positionSide === 'SHORT') return 'short';
  return Number(position.amount) < 0 ? 'short' : 'long';
}

/** How a limit order's time in force reads in its confirmation */
const TIME_IN_FORCE_WORDS: Record<string, string> = {
  GTC: 'good till canceled',
  IOC: 'immediate or cancel (what does not fill at once is canceled)',
  FOK: 'fill or kill (all of it at once, or nothing)',
  GTX: 'post-only (refused if it would fill at once)',
  GTD: 'good till its date',
};

/** The side of the orders that close (or reduce) the position */
export function closingSide(position: Pick<FuturesPosition, 'amount' | 'positionSide'>): 'BUY' | 'SELL' {
  return positionDirection(position) === 'long' ? 'SELL' : 'BUY';
}

/** What placing this order does, in one sentence: "Buy 0.010 BTCUSDT at 60,000.0, limit, good till canceled" */
export function describeOrder(order: CreateOrderRequest, p: Precision): string {
  const head = `${sideWord(order.side)} ${size(order.quantity ?? '0', p)} ${order.symbol}`;
  const tail = order.reduceOnly ? ', reduce-only' : '';
  switch (order.type) {
    case 'LIMIT':
      return `${head} at ${price(order.price ?? '0', p)}, limit, ${TIME_IN_FORCE_WORDS[order.timeInForce ?? 'GTC'] ?? order.timeInForce}${tail}`;
    case 'MARKET':
      return `${head} at market${tail}`;
    case 'STOP_MARKET':
      return `${head} at market once the last price reaches ${price(order.triggerPrice ?? '0', p)} (stop)${tail}`;
    case 'TAKE_PROFIT_MARKET':
      return `${head} at market once the last price reaches ${price(order.triggerPrice ?? '0', p)} (take-profit)${tail}`;
    case 'TRAILING_STOP_MARKET':
      return `${head} at market once the price comes back ${order.callbackRate ?? '?'} % from its best${
        order.activationPrice ? ` after reaching ${price(order.activationPrice, p)}` : ''
      } (trailing stop)${tail}`;
    default:
      return `${head}, ${order.type}${tail}`;
  }
}

/** The order that closes a position: opposite side, its whole size, reduce-only (hedge mode: by position side) */
export function closeOrder(
  position: FuturesPosition,
  how: { type: 'MARKET' } | { type: 'LIMIT'; price: string },
  /** Part of the position to close (its whole size when absent) */
  quantity = position.amount.replace(/^-/, ''),
): CreateOrderRequest {
  const hedged = position.positionSide !== 'BOTH';
  return {
    symbol: position.symbol,
    side: closingSide(position),
    type: how.type,
    quantity,
    ...(how.type === 'LIMIT' ? { price: how.price, timeInForce: 'GTC' as const } : {}),
    // Binance refuses reduceOnly in hedge mode: there the position side alone makes the order a close
    ...(hedged ? { positionSide: position.positionSide } : { reduceOnly: true }),
  };
}

/** "Close 0.010 BTCUSDT long at market, reduce-only" */
export function describeClose(position: FuturesPosition, order: CreateOrderRequest, p: Precision): string {
  const whole = position.amount.replace(/^-/, '');
  const part = order.quantity ?? whole;
  const of = Number(part) === Number(whole) ? '' : ` of ${size(whole, p)}`;
  const head = `Close ${size(part, p)}${of} ${position.symbol} ${positionDirection(position)}`;
  const how =
    order.type === 'LIMIT'
      ? ` with a limit ${order.side === 'BUY' ? 'buy' : 'sell'} at ${price(order.price ?? '0', p)}`
      : ' at market';
  return `${head}${how}, reduce-only`;
}

/**
 * `percent` of a position's size, rounded down to the symbol's lot step (the exchange takes whole steps only);
 * "0" when that is less than one step
 */
export function partOfPosition(amount: string, percent: number, stepSize: string): string {
  if (percent >= 100) return amount.replace(/^-/, '');
  return floorToStep((Math.abs(Number(amount)) * percent) / 100, stepSize);
}

/** "Set BTCUSDT leverage from 20x to 10x" */
export function describeLeverage(symbol: string, from: number | null, to: number): string {
  return from === null
    ? `Set ${symbol} leverage to ${to}x`
    : `Set ${symbol} leverage from ${from}x to ${to}x`;
}

const TYPE_WORDS: Record<string, string> = {
  LIMIT: 'limit',
  MARKET: 'market',
  STOP: 'stop limit',
  STOP_MARKET: 'stop market',
  TAKE_PROFIT: 'take-profit limit',
  TAKE_PROFIT_MARKET: 'take-profit market',
  TRAILING_STOP_MARKET: 'trailing stop',
};

/** An order's type in words: "stop market" */
export const orderTypeWords = (type: string) => TYPE_WORDS[type] ?? type.toLowerCase();

/** "Cancel the buy limit order for 0.010 BTCUSDT at 60,000.0" */
export function describeCancel(order: FuturesOrder, p: Precision): string {
  const what = `the ${order.side === 'BUY' ? 'buy' : 'sell'} ${orderTypeWords(order.type)} order`;
  const amount = order.closePosition
    ? `closing the ${order.symbol} position`
    : `for ${size(order.quantity, p)} ${order.symbol}`;
  const limit = Number(order.price) > 0 ? ` at ${price(order.price, p)}` : '';
  const trigger = Number(order.triggerPrice) > 0 ? `, trigger ${price(order.triggerPrice, p)}` : '';
  return `Cancel ${what} ${amount}${limit}${trigger}`;
}
