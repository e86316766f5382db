import type { BotEventKind, BotOrder } from '@kestrel/contracts/bots';
import type { BarColumns, OrderView } from '@kestrel/engine';
import type { Kline } from '../../core/exchange/exchange-adapter';

/*
 * A bot's step as both its accounts (paper and live), its session and the agents speak of it: the bars it trades,
 * what it logs, its figures, and the words its log uses for orders
 */

/** One closed bar, numbers (the exchange's decimal strings converted once, where they enter) */
export interface BotBar {
  openTime: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** The exchange's candle as a bar */
export const barOfKline = (k: Kline): BotBar => ({
  openTime: k.openTime,
  open: Number(k.open),
  high: Number(k.high),
  low: Number(k.low),
  close: Number(k.close),
  volume: Number(k.volume),
});

/** Bar `i` of the kline cache's columns */
export const barAt = (bars: BarColumns, i: number): BotBar => ({
  openTime: bars.openTime[i] as number,
  open: bars.open[i] as number,
  high: bars.high[i] as number,
  low: bars.low[i] as number,
  close: bars.close[i] as number,
  volume: bars.volume[i] as number,
});

/** A forming candle of the bar in progress (the exchange's kline stream): its open, and its range and last price so far */
export type FormingBar = Omit<BotBar, 'volume'>;

/** Something the bot did or saw on a bar, for its log */
export interface BotLogEntry {
  kind: BotEventKind;
  message: string;
  data: Record<string, unknown>;
}

/**
 * The outcome of one traded bar: what to log, and what stops the bot, if anything: a risk limit it broke (ours,
 * checked before sending), or an order the exchange refused (`cause: 'exchange'`: not a risk stop, and told so)
 */
export interface BarOutcome {
  log: BotLogEntry[];
  breach?: { message: string; data: Record<string, unknown>; cause?: 'exchange' };
}

/** How the bot is doing at its last bar (USDT; quantities signed) */
export interface PaperFigures {
  realizedPnl: number;
  unrealizedPnl: number;
  todayPnl: number;
  positionQty: number;
  entryPrice: number | null;
  markPrice: number | null;
  equity: number;
  /** Highest equity of the session so far: its drawdown limit is measured from it (`drawdownPercentOf`) */
  peakEquity: number;
  openOrders: BotOrder[];
}

/** A bot order's trigger as its figures list it: a stop's trigger, a trailing stop's activation price, else null */
export function triggerOf(o: Pick<OrderView, 'triggerPrice'> & { activationPrice?: number }): string | null {
  if (Number.isFinite(o.triggerPrice)) return String(o.triggerPrice);
  return o.activationPrice !== undefined && Number.isFinite(o.activationPrice)
    ? String(o.activationPrice)
    : null;
}

/**
 * An order in the words of a bot's log: "buy limit 0.003 at 49800", "sell stop-market, whole position, trigger
 * 47500", "sell trailing-stop-market 0.004 from 50500 (0.5 % back)"
 */
export function orderWords(
  o: Pick<OrderView, 'side' | 'type' | 'quantity' | 'price' | 'triggerPrice' | 'closePosition'> & {
    activationPrice?: number;
    callbackRate?: number;
  },
): string {
  const size = o.closePosition ? ', whole position' : ` ${o.quantity}`;
  const at = Number.isFinite(o.price) ? ` at ${o.price}` : '';
  const trigger = Number.isFinite(o.triggerPrice) ? ` trigger ${o.triggerPrice}` : '';
  // The engine's orders say NaN where the exchange's say nothing
  const rate = o.callbackRate ?? Number.NaN;
  const from = o.activationPrice ?? Number.NaN;
  const trailing = Number.isFinite(rate)
    ? `${Number.isFinite(from) ? ` from ${from}` : ''} (${+(rate * 100).toFixed(1)} % back)`
    : '';
  return `${o.side} ${o.type}${size}${at}${o.closePosition ? ',' : ''}${trigger}${trailing}`;
}
const barLabel = (t: number) => new Date(t).toISOString().slice(0, 16).replace('T', ' ');

/**
 * The log line of a strategy step that placed `orders`: a bar's close, or the session's first step, which acts at
 * the price of the start (`price`)
 */
export function stepSignal(bar: BotBar, price: number | undefined, orders: number): BotLogEntry {
  const what = `${orders} order${orders === 1 ? '' : 's'}`;
  return {
    kind: 'signal',
    message:
      price === undefined
        ? `The ${barLabel(bar.openTime)} bar closed at ${bar.close}: ${what}`
        : `Started at ${price} (the ${barLabel(bar.openTime)} bar closed at ${bar.close}): ${what}`,
    data: { barTime: bar.openTime, close: bar.close, orders, ...(price === undefined ? {} : { price }) },
  };
}
