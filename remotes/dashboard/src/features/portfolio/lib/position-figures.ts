import type { DashboardPortfolio, FuturesPosition } from '@kestrel/contracts';

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

/** Decimal text of a figure computed in the browser: plain notation, never "-0" */
const text = (value: number) => (value === 0 ? '0' : String(value));

/**
 * The whole portfolio snapshot re-marked at pushed mark prices: positions, the account totals, the USDT balance
 * (where USDⓈ-M PnL accrues) and the exposures move together, so every figure of the page is one state and the
 * cards, the rows and the balances agree to the cent between two snapshots
 */
export function remarkPortfolio(
  portfolio: DashboardPortfolio,
  marks: ReadonlyMap<string, { markPrice: string }>,
): DashboardPortfolio {
  let delta = 0;
  const positions = portfolio.positions.map((p) => {
    const push = marks.get(p.symbol);
    const moved = push ? remark(p, push.markPrice) : p;
    delta += Number(moved.unrealizedPnl) - Number(p.unrealizedPnl);
    return moved;
  });
  if (delta === 0 && positions.every((p, i) => p === portfolio.positions[i])) return portfolio;
  const shifted = (value: string) => text(Number(value) + delta);
  const assets = portfolio.assets.map((a) =>
    a.asset === 'USDT'
      ? {
          ...a,
          unrealizedPnl: shifted(a.unrealizedPnl),
          marginBalance: shifted(a.marginBalance),
          usdtValue: a.usdtValue === null ? null : shifted(a.usdtValue),
        }
      : a,
  );
  const valued = assets.reduce((sum, a) => sum + (a.usdtValue === null ? 0 : Number(a.usdtValue)), 0);
  const exposures = positions.map((p) => Math.abs(Number(p.notional)));
  const gross = exposures.reduce((sum, e) => sum + e, 0);
  return {
    ...portfolio,
    totals: {
      ...portfolio.totals,
      unrealizedPnl: shifted(portfolio.totals.unrealizedPnl),
      marginBalance: shifted(portfolio.totals.marginBalance),
    },
    assets: assets.map((a) => ({
      ...a,
      share: a.usdtValue === null || !(valued > 0) ? a.share : (Number(a.usdtValue) / valued).toFixed(4),
    })),
    positions,
    allocation: {
      ...portfolio.allocation,
      grossExposure: text(gross),
      netExposure: text(positions.reduce((sum, p) => sum + Number(p.notional), 0)),
      positions: portfolio.allocation.positions.map((a) => {
        const i = positions.findIndex((p) => p.symbol === a.symbol && p.positionSide === a.positionSide);
        const exposure = exposures[i];
        return exposure === undefined
          ? a
          : {
              ...a,
              exposure: text(exposure),
              exposureShare: gross > 0 ? (exposure / gross).toFixed(4) : '0',
            };
      }),
    },
  };
}
