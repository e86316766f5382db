import type { FuturesOrder, FuturesPosition, FuturesTrade } from '@kestrel/contracts';
import type { Candle } from './candles';
import type { MovableKind, MovableLine } from './line-drag';

/** A horizontal price line on the chart */
export interface PriceLine {
  /** Position lines: entry, liquidation; orders: their side */
  kind: 'entry' | 'liquidation' | 'buy' | 'sell';
  price: number;
  /** The axis label, short: "Long 0.040" (the entry), "Liq.", "Limit buy 0.010", "TP sell close" */
  title: string;
  /** A position's take-profit or stop-loss: the trader may drag it to a new trigger (its grip reads `label`) */
  movable?: { orderId: string; kind: MovableKind; label: string };
}

/** The user's fills of one side within one bar, drawn on that bar */
export interface FillMarker {
  /** The bar's open time, ms since epoch */
  time: number;
  side: 'BUY' | 'SELL';
  /** Average price of the fills */
  price: number;
  /** Total quantity */
  quantity: number;
}

const positive = (value: string) => {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : undefined;
};

/** Entry and liquidation lines of the symbol's open positions (both sides in hedge mode) */
export function positionLines(positions: readonly FuturesPosition[], symbol: string): PriceLine[] {
  const lines: PriceLine[] = [];
  for (const p of positions) {
    if (p.symbol !== symbol || Number(p.amount) === 0) continue;
    const side = Number(p.amount) > 0 ? 'Long' : 'Short';
    const hedge = p.positionSide === 'BOTH' ? '' : ` ${side}`;
    const size = p.amount.replace(/^-/, '');
    const entry = positive(p.entryPrice);
    // The entry line says what is held: "Long 0.040" at the entry price
    if (entry !== undefined) lines.push({ kind: 'entry', price: entry, title: `${side} ${size}` });
    // Binance reports 0 when the position cannot be liquidated (enough margin for any price)
    const liquidation = positive(p.liquidationPrice);
    if (liquidation !== undefined)
      lines.push({ kind: 'liquidation', price: liquidation, title: `Liq.${hedge}` });
  }
  return lines;
}

/** The price an order waits at: its limit price, or for a stop / take-profit its trigger */
function restingPrice(order: FuturesOrder): number | undefined {
  return positive(order.price) ?? positive(order.triggerPrice) ?? positive(order.activationPrice ?? '');
}

/** The title box around a line's title (the chart library's padding either side) and a little air before it */
const TITLE_BOX_PX = 18;

/**
 * Pixels kept free right of the newest candle when lines carry titles: the chart draws each title at the pane's
 * right edge, beside the price axis, so a gutter as wide as the widest title keeps every candle out from under
 * them (at any zoom: the gutter is in pixels, not bars). No titles, no gutter.
 */
export function labelGutter(titles: readonly string[], measure: (text: string) => number): number {
  const widest = Math.max(0, ...titles.filter((t) => t !== '').map(measure));
  return widest > 0 ? Math.ceil(widest + TITLE_BOX_PX) : 0;
}

/** Short names on the price axis, where every character covers the chart */
const ORDER_TYPE_LABELS: Readonly<Record<string, string>> = {
  LIMIT: 'Limit',
  STOP: 'Stop',
  STOP_MARKET: 'Stop',
  TAKE_PROFIT: 'TP',
  TAKE_PROFIT_MARKET: 'TP',
  TRAILING_STOP_MARKET: 'Trail',
};

/**
 * One line per open order of the symbol, at the price it waits for; the orders in `movable` (a position's TP/SL,
 * see `movableProtections`) are marked as draggable
 */
export function orderLines(
  orders: readonly FuturesOrder[],
  symbol: string,
  movable?: ReadonlyMap<string, MovableLine>,
): PriceLine[] {
  const lines: PriceLine[] = [];
  for (const o of orders) {
    if (o.symbol !== symbol) continue;
    const price = restingPrice(o);
    if (price === undefined) continue;
    const size = o.closePosition ? 'close' : o.quantity;
    const side = o.side === 'BUY' ? 'buy' : 'sell';
    const type = ORDER_TYPE_LABELS[o.type] ?? o.type;
    const protection = movable?.get(o.orderId);
    lines.push({
      kind: o.side === 'BUY' ? 'buy' : 'sell',
      price,
      title: `${type} ${side} ${size}`,
      ...(protection
        ? { movable: { orderId: o.orderId, kind: protection.kind, label: protection.label } }
        : {}),
    });
  }
  return lines;
}

/**
 * Fills placed on the bar they happened in (markers must sit on a bar's time), one marker per bar and side with
 * the fills' total quantity and average price; fills before the first bar are off the chart and left out. Sorted
 * by time, as the chart library requires.
 */
export function fillMarkers(trades: readonly FuturesTrade[], candles: readonly Candle[]): FillMarker[] {
  const first = candles[0];
  if (!first) return [];
  const byBar = new Map<string, FillMarker & { notional: number }>();
  for (const t of trades) {
    if (t.time < first.openTime) continue;
    const bar = barAt(candles, t.time);
    if (!bar) continue;
    const key = `${bar.openTime}|${t.side}`;
    const quantity = Number(t.quantity);
    const notional = quantity * Number(t.price);
    const seen = byBar.get(key);
    if (seen) {
      seen.quantity += quantity;
      seen.notional += notional;
      seen.price = seen.notional / seen.quantity;
    } else {
      byBar.set(key, { time: bar.openTime, side: t.side, price: Number(t.price), quantity, notional });
    }
  }
  return [...byBar.values()]
    .map(({ notional: _, ...marker }) => marker)
    .sort((a, b) => a.time - b.time || a.side.localeCompare(b.side));
}

/** The bar whose span holds `time` (bars are sorted by open time); the last bar takes anything after it */
function barAt(candles: readonly Candle[], time: number): Candle | undefined {
  let lo = 0;
  let hi = candles.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if ((candles[mid] as Candle).openTime <= time) lo = mid;
    else hi = mid - 1;
  }
  return candles[lo];
}
