import type {
  CreateOrderRequest,
  Exposure,
  LimitUsage,
  StoredRiskLimits,
  ValueAtRisk,
} from '@kestrel/contracts';
import { Atr } from '@kestrel/engine';
import { isOpenPosition } from '../../core/exchange/account-figures';
import type { Kline, Position } from '../../core/exchange/exchange-adapter';

/** Fewer scenario days than this and the VaR says nothing: no figure */
export const VAR_MIN_OBSERVATIONS = 10;
/** Daily closes the VaR reads per symbol (90 closes make 89 returns; one more candle for the one still open) */
export const VAR_DAYS = 90;
export const ATR_PERIOD = 14;
export const VAR_METHOD =
  '1-day historical simulation over the last 90 daily closes: each day’s return applied to today’s signed ' +
  'notionals, summed per day; VaR = the loss at the 5th percentile of those daily PnLs';

/** Limits of a user who never set any */
export const NO_LIMITS: StoredRiskLimits = {
  maxLeverage: null,
  dailyLossLimit: null,
  maxDrawdownPercent: null,
  maxPositionNotional: null,
  updatedAt: null,
};

export const hasLimits = (l: StoredRiskLimits): boolean =>
  l.maxLeverage !== null ||
  l.dailyLossLimit !== null ||
  l.maxDrawdownPercent !== null ||
  l.maxPositionNotional !== null;

/** A figure in a sentence: at most `digits` decimals (6 below 1, so a tiny limit is not "0"), thousands separated */
export const fmt = (n: number, digits = 2): string =>
  n.toLocaleString('en-US', {
    maximumFractionDigits: n !== 0 && Math.abs(n) < 1 ? Math.max(digits, 6) : digits,
    minimumFractionDigits: 0,
  });

/**
 * Whether an order can only lower exposure: reduce-only, close-position, a hedge-mode close (SELL of the LONG side,
 * BUY of the SHORT side), or a one-way order against the position no larger than it. Such orders always pass
 */
export function isReducing(
  order: Pick<
    CreateOrderRequest,
    'symbol' | 'side' | 'quantity' | 'reduceOnly' | 'closePosition' | 'positionSide'
  >,
  positions: readonly Pick<Position, 'symbol' | 'positionSide' | 'amount'>[] | undefined,
): boolean {
  if (order.reduceOnly || order.closePosition) return true;
  const side = order.positionSide ?? 'BOTH';
  if (side === 'LONG') return order.side === 'SELL';
  if (side === 'SHORT') return order.side === 'BUY';
  if (!positions) return false;
  const held = positions.find((p) => p.symbol === order.symbol && p.positionSide === 'BOTH');
  return closesOneWay(
    order.side === 'SELL',
    Number(order.quantity ?? Number.POSITIVE_INFINITY),
    Number(held?.amount ?? 0),
  );
}

/**
 * A one-way order that can only take the position (signed) toward flat: against it and no larger, so it cannot flip
 * it. The one rule of the account limits' `isReducing` and the bot limits' `isExit`
 */
export function closesOneWay(sells: boolean, qty: number, positionQty: number): boolean {
  const against = sells ? positionQty > 0 : positionQty < 0;
  return against && qty <= Math.abs(positionQty);
}

/** The price an order's notional is judged at: its limit price, its trigger, else the market's */
export function orderPrice(
  order: Pick<CreateOrderRequest, 'type' | 'price' | 'triggerPrice'>,
  marketPrice: number,
): number {
  if (order.price !== undefined) return Number(order.price);
  if (order.triggerPrice !== undefined) return Number(order.triggerPrice);
  return marketPrice;
}

/**
 * Open notional after the order fills in full: every other position as it is (at its mark), the order's leg
 * (symbol and position side) at `price` with the order's quantity added (BUY) or taken (SELL)
 */
export function notionalAfter(
  order: Pick<CreateOrderRequest, 'symbol' | 'side' | 'quantity' | 'positionSide'>,
  positions: readonly Pick<Position, 'symbol' | 'positionSide' | 'amount' | 'notional'>[],
  price: number,
): { gross: number; symbol: number } {
  const side = order.positionSide ?? 'BOTH';
  const qty = Number(order.quantity ?? 0);
  const leg = positions.find((p) => p.symbol === order.symbol && p.positionSide === side);
  const amountAfter = Number(leg?.amount ?? 0) + (order.side === 'BUY' ? qty : -qty);
  const legNotional = Math.abs(amountAfter) * price;
  const others = positions.filter((p) => p !== leg && isOpenPosition(p));
  const abs = (p: Pick<Position, 'notional'>) => Math.abs(Number(p.notional));
  return {
    gross: others.reduce((acc, p) => acc + abs(p), 0) + legNotional,
    symbol: others.filter((p) => p.symbol === order.symbol).reduce((acc, p) => acc + abs(p), 0) + legNotional,
  };
}

/** Loss of the UTC day so far: −(net realized since 00:00 UTC + unrealized now), 0 when the day is a gain */
export function dailyLoss(netRealizedToday: string, unrealizedNow: string): number {
  return Math.max(0, -(Number(netRealizedToday) + Number(unrealizedNow)));
}

/** Percent the margin balance stands below its peak (the recorded peak or now, whichever is higher) */
export function drawdownPercent(peak: number | undefined, marginBalance: number): number {
  const top = Math.max(peak ?? marginBalance, marginBalance);
  return top > 0 ? ((top - marginBalance) / top) * 100 : 0;
}

/** Open notional by symbol and direction */
export function exposureBySymbol(
  positions: readonly Pick<Position, 'symbol' | 'amount' | 'notional'>[],
): Exposure[] {
  const by = new Map<string, Exposure>();
  for (const p of positions.filter(isOpenPosition)) {
    const e = by.get(p.symbol) ?? { symbol: p.symbol, long: 0, short: 0, net: 0 };
    const n = Math.abs(Number(p.notional));
    if (Number(p.amount) > 0) e.long += n;
    else e.short += n;
    e.net = e.long - e.short;
    by.set(p.symbol, e);
  }
  return [...by.values()].sort((a, b) => b.long + b.short - (a.long + a.short));
}

/** ATR(14) of the candles (Wilder, the engine's `Atr`), null until it is stable */
export function atrOf(klines: readonly Pick<Kline, 'high' | 'low' | 'close' | 'volume'>[]): number | null {
  const atr = new Atr(ATR_PERIOD);
  for (const k of klines)
    atr.add({
      high: Number(k.high),
      low: Number(k.low),
      close: Number(k.close),
      volume: Number(k.volume),
    });
  return atr.isStable() ? atr.value : null;
}

/**
 * 1-day 95 % historical VaR (see `VAR_METHOD`): `closes` per symbol keyed by the candle's open time; only days
 * every held symbol has (and its previous day) count
 */
export function historicalVar(
  holdings: readonly { symbol: string; signedNotional: number }[],
  closes: ReadonlyMap<string, ReadonlyMap<number, number>>,
): ValueAtRisk {
  const base = { confidence: 0.95 as const, horizonDays: 1 as const, method: VAR_METHOD };
  if (holdings.length === 0) return { ...base, value: null, observations: 0 };
  const days = [...(closes.get(holdings[0]?.symbol ?? '')?.keys() ?? [])].sort((a, b) => a - b);
  const pnls: number[] = [];
  for (let i = 1; i < days.length; i++) {
    const [prev, day] = [days[i - 1] as number, days[i] as number];
    let pnl = 0;
    let complete = true;
    for (const h of holdings) {
      const series = closes.get(h.symbol);
      const a = series?.get(prev);
      const b = series?.get(day);
      if (a === undefined || b === undefined || a <= 0) {
        complete = false;
        break;
      }
      pnl += h.signedNotional * (b / a - 1);
    }
    if (complete) pnls.push(pnl);
  }
  if (pnls.length < VAR_MIN_OBSERVATIONS) return { ...base, value: null, observations: pnls.length };
  pnls.sort((a, b) => a - b);
  const fifth = pnls[Math.floor(0.05 * pnls.length)] as number;
  return { ...base, value: Math.max(0, -fifth), observations: pnls.length };
}

/** How close each limit is to breaking */
export function limitUsage(
  limits: StoredRiskLimits,
  figures: { leverage: number; loss: number; drawdown: number; largestNotional: number },
): LimitUsage[] {
  const one = (name: LimitUsage['name'], limit: number | null, current: number, strict: boolean) => ({
    name,
    limit,
    current,
    usedPercent: limit === null ? null : (current / limit) * 100,
    // Leverage and notional may sit on the limit; a loss or drawdown that reaches it halts trading
    breached: limit !== null && (strict ? current > limit : current >= limit),
  });
  return [
    one('maxLeverage', limits.maxLeverage, figures.leverage, true),
    one('dailyLossLimit', limits.dailyLossLimit, figures.loss, false),
    one('maxDrawdownPercent', limits.maxDrawdownPercent, figures.drawdown, false),
    one('maxPositionNotional', limits.maxPositionNotional, figures.largestNotional, true),
  ];
}
