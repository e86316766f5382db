import type { DashboardPortfolio, FuturesAccountInfo, FuturesPosition } from '@kestrel/contracts';

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
 * Where the margin balance is: each position's initial margin (the server's `marginShare`), what is free, and the
 * rest (margin held by open orders). Nothing when the margin balance is not positive.
 */
export function marginAllocation(portfolio: DashboardPortfolio): AllocationSlice[] {
  const total = Number(portfolio.totals.marginBalance);
  if (!(total > 0)) return [];
  const slices: AllocationSlice[] = portfolio.allocation.positions
    .map((p) => ({
      key: `${p.symbol}-${p.positionSide}`,
      label: p.positionSide === 'BOTH' ? p.symbol : `${p.symbol} ${p.positionSide.toLowerCase()}`,
      share: Number(p.marginShare),
    }))
    .filter((s) => s.share > 0)
    .sort((a, b) => b.share - a.share)
    .map((s) => ({ ...s, value: s.share * total }));
  const available = Math.max(0, Number(portfolio.totals.availableBalance));
  const held = total - available - slices.reduce((sum, s) => sum + s.value, 0);
  // Below a tenth of a percent it is rounding between the exchange's figures, not margin held
  if (held / total >= 0.001)
    slices.push({ key: 'orders', label: 'Open orders', value: held, share: held / total });
  slices.push({ key: 'available', label: 'Available', value: available, share: available / total });
  return slices;
}

/**
 * A position re-marked at a pushed mark price: its mark, notional and unrealized PnL follow the price between two
 * REST snapshots (liquidation price and margin stay the snapshot's until the next one)
 */
export function remark(position: FuturesPosition, markPrice: string): FuturesPosition {
  const amount = Number(position.amount);
  const mark = Number(markPrice);
  if (!Number.isFinite(mark) || mark <= 0) return position;
  return {
    ...position,
    markPrice,
    notional: String(amount * mark),
    unrealizedPnl: String(amount * (mark - Number(position.entryPrice))),
  };
}

/**
 * The account totals moved by the same amount as its positions' re-marked PnL, so the cards and the rows agree
 * between two snapshots
 */
export function remarkAccount(
  account: FuturesAccountInfo,
  positions: readonly FuturesPosition[],
): FuturesAccountInfo {
  let delta = 0;
  account.positions.forEach((p, i) => {
    delta += Number(positions[i]?.unrealizedPnl ?? p.unrealizedPnl) - Number(p.unrealizedPnl);
  });
  if (delta === 0) return account;
  return {
    ...account,
    totalUnrealizedPnl: String(Number(account.totalUnrealizedPnl) + delta),
    totalMarginBalance: String(Number(account.totalMarginBalance) + delta),
    positions: [...positions],
  };
}
