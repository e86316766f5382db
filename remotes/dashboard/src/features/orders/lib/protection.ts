import type { CreateOrderRequest, FuturesOrder, FuturesPosition, SymbolInfo } from '@kestrel/contracts';
import { formatPrice } from '@kestrel/ui';
import { isDecimal, isMultipleOf } from './decimal';
import { closingSide, type Precision, positionDirection } from './describe-action';

/**
 * A position's take-profit and stop-loss (Binance's close-position conditional orders at a trigger price) and its
 * trailing stop (a reduce-only trailing order of the position's size, at a callback rate in percent)
 */
export type ProtectionKind = 'takeProfit' | 'stopLoss' | 'trailingStop';
export const PROTECTION_KINDS = ['takeProfit', 'stopLoss', 'trailingStop'] as const;

const ORDER_TYPE: Record<ProtectionKind, 'TAKE_PROFIT_MARKET' | 'STOP_MARKET' | 'TRAILING_STOP_MARKET'> = {
  takeProfit: 'TAKE_PROFIT_MARKET',
  stopLoss: 'STOP_MARKET',
  trailingStop: 'TRAILING_STOP_MARKET',
};
const WORDS: Record<ProtectionKind, string> = {
  takeProfit: 'take-profit',
  stopLoss: 'stop-loss',
  trailingStop: 'trailing stop',
};

/** What a kind's field holds: a trigger price, or for the trailing stop its callback rate (percent) */
export const protectionValue = (kind: ProtectionKind, order: FuturesOrder): string =>
  (kind === 'trailingStop' ? order.callbackRate : order.triggerPrice) ?? '';

/**
 * The position's take-profit and stop-loss among the open orders: waiting conditional orders of its symbol that
 * close the whole position on its closing side (and, in hedge mode, its position side)
 */
export function protectionOf(
  position: FuturesPosition,
  orders: readonly FuturesOrder[],
): Partial<Record<ProtectionKind, FuturesOrder>> {
  const side = closingSide(position);
  const mine = orders.filter(
    (o) =>
      o.symbol === position.symbol &&
      o.kind === 'conditional' &&
      o.side === side &&
      (position.positionSide === 'BOTH' || o.positionSide === position.positionSide),
  );
  const takeProfit = mine.find((o) => o.closePosition && o.type === 'TAKE_PROFIT_MARKET');
  const stopLoss = mine.find((o) => o.closePosition && o.type === 'STOP_MARKET');
  const trailingStop = mine.find((o) => o.type === 'TRAILING_STOP_MARKET');
  return {
    ...(takeProfit ? { takeProfit } : {}),
    ...(stopLoss ? { stopLoss } : {}),
    ...(trailingStop ? { trailingStop } : {}),
  };
}

/**
 * The order that sets one of them: close the whole position at market when the mark price reaches the trigger
 * (the mark, not the last price, so a wick on the last trade alone does not fire it, as Binance's TP/SL defaults)
 */
export function protectionOrder(
  position: FuturesPosition,
  kind: ProtectionKind,
  value: string,
): CreateOrderRequest {
  const hedged = position.positionSide !== 'BOTH';
  const base = {
    symbol: position.symbol,
    side: closingSide(position),
    type: ORDER_TYPE[kind],
    workingType: 'MARK_PRICE' as const,
    ...(hedged ? { positionSide: position.positionSide } : {}),
  };
  // Binance takes no closePosition on a trailing order: it trails the position's size, reduce-only
  if (kind === 'trailingStop') {
    return {
      ...base,
      quantity: position.amount.replace(/^-/, ''),
      callbackRate: value,
      ...(hedged ? {} : { reduceOnly: true }),
    };
  }
  return { ...base, triggerPrice: value, closePosition: true };
}

/**
 * What is wrong with a trigger typed for a position (empty: none is wanted). A long's take-profit is above the mark
 * and its stop-loss below (a short's the other way round): the other way the order would fire at once
 */
export function protectionError(
  position: FuturesPosition,
  kind: ProtectionKind,
  trigger: string,
  info: SymbolInfo | undefined,
): string | undefined {
  if (trigger === '') return undefined;
  if (kind === 'trailingStop') {
    // Binance's range for the callback rate
    return isDecimal(trigger) && Number(trigger) >= 0.1 && Number(trigger) <= 10
      ? undefined
      : 'Enter a callback rate from 0.1 to 10 (%), or leave it empty';
  }
  if (!isDecimal(trigger) || Number(trigger) <= 0) return 'Enter a price greater than 0, or leave it empty';
  if (info && !isMultipleOf(trigger, info.tickSize)) {
    return `Price must be a multiple of ${info.symbol}'s tick size ${info.tickSize}`;
  }
  const mark = Number(position.markPrice);
  const long = positionDirection(position) === 'long';
  const above = kind === 'takeProfit' ? long : !long;
  if (above && !(Number(trigger) > mark)) {
    return `A ${positionDirection(position)}'s ${WORDS[kind]} must be above the mark price`;
  }
  if (!above && !(Number(trigger) < mark)) {
    return `A ${positionDirection(position)}'s ${WORDS[kind]} must be below the mark price`;
  }
  return undefined;
}

/** One change to make: set (or move) a trigger, or remove the order */
export type ProtectionChange =
  | { kind: ProtectionKind; action: 'set'; value: string; replaces?: FuturesOrder }
  | { kind: ProtectionKind; action: 'remove'; order: FuturesOrder };

/**
 * The changes that bring the position's TP/SL from what is on the exchange to what was typed (nothing if equal); a
 * kind absent from `wanted` is left as it is (a trailing stop whose rate the exchange does not report, untouched)
 */
export function protectionChanges(
  current: Partial<Record<ProtectionKind, FuturesOrder>>,
  wanted: Partial<Record<ProtectionKind, string>>,
): ProtectionChange[] {
  const changes: ProtectionChange[] = [];
  for (const kind of PROTECTION_KINDS) {
    const now = current[kind];
    const want = wanted[kind];
    if (want === undefined) continue;
    if (want === '') {
      if (now) changes.push({ kind, action: 'remove', order: now });
    } else if (!now || Number(protectionValue(kind, now)) !== Number(want)) {
      changes.push({ kind, action: 'set', value: want, ...(now ? { replaces: now } : {}) });
    }
  }
  return changes;
}

/** "BTCUSDT long: take-profit at 70,000.0, stop-loss removed; each closes the whole position at market…" */
export function describeProtection(
  position: FuturesPosition,
  changes: readonly ProtectionChange[],
  p: Precision,
): string {
  const name = `${position.symbol} ${positionDirection(position)}`;
  if (changes.length === 0) return `${name}: nothing to change`;
  const parts = changes.map((c) =>
    c.action === 'remove'
      ? `${WORDS[c.kind]} removed`
      : c.kind === 'trailingStop'
        ? `trailing stop ${c.value} % behind the best mark price`
        : `${WORDS[c.kind]} ${c.replaces ? 'moved to' : 'at'} ${formatPrice(Number(c.value), { precision: p.price })}`,
  );
  const sets = changes.filter((c) => c.action === 'set').length;
  const how =
    sets === 0
      ? ''
      : `; ${sets === 1 ? 'it closes' : 'each closes'} the whole position at market when the mark price reaches it`;
  return `${name}: ${parts.join(', ')}${how}`;
}
