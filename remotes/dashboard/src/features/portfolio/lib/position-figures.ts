import type { FuturesAccountInfo, FuturesPosition } from '@kestrel/contracts';

/** Leverage in use: notional over initial margin (Binance's initial margin is notional / leverage) */
export function positionLeverage(
  position: Pick<FuturesPosition, 'notional' | 'initialMargin'>,
): number | null {
  const margin = Number(position.initialMargin);
  if (!(margin > 0)) return null;
  return Math.round(Math.abs(Number(position.notional)) / margin);
}

/** Return on equity as a fraction: unrealized PnL over the margin put up, as Binance's ROE column */
export function positionRoe(
  position: Pick<FuturesPosition, 'unrealizedPnl' | 'initialMargin'>,
): number | null {
  const margin = Number(position.initialMargin);
  return margin > 0 ? Number(position.unrealizedPnl) / margin : null;
}

/** A liquidation price of "0" means the exchange reports none (the position cannot be liquidated) */
export function liquidationPrice(position: Pick<FuturesPosition, 'liquidationPrice'>): number | null {
  const price = Number(position.liquidationPrice);
  return price > 0 ? price : null;
}

export interface AllocationSlice {
  key: string;
  label: string;
  /** USDT */
  value: number;
  /** Of the margin balance, 0-1 */
  share: number;
}

/**
 * Where the margin balance is: the initial margin of each position, margin held by open orders, and what is free.
 * Shares of the margin balance; nothing when the balance is not positive.
 */
export function marginAllocation(account: FuturesAccountInfo): AllocationSlice[] {
  const total = Number(account.totalMarginBalance);
  if (!(total > 0)) return [];
  const slices: AllocationSlice[] = account.positions
    .map((p) => ({
      key: `${p.symbol}-${p.positionSide}`,
      label: p.positionSide === 'BOTH' ? p.symbol : `${p.symbol} ${p.positionSide.toLowerCase()}`,
      value: Number(p.initialMargin),
    }))
    .filter((s) => s.value > 0)
    .sort((a, b) => b.value - a.value)
    .map((s) => ({ ...s, share: s.value / total }));
  const positionsMargin = slices.reduce((sum, s) => sum + s.value, 0);
  const available = Math.max(0, Number(account.availableBalance));
  // What is neither position margin nor free: margin reserved by open orders
  const orders = Math.max(0, Number(account.totalInitialMargin) - positionsMargin);
  if (orders > 0.005)
    slices.push({ key: 'orders', label: 'Open orders', value: orders, share: orders / total });
  slices.push({ key: 'available', label: 'Available', value: available, share: available / total });
  return slices;
}
