import type { LeverageBracket } from './brackets';

/** Inputs of Binance's liquidation price formula for a one-way (BOTH) position */
export interface LiquidationInput {
  /** Signed position amount (positive long, negative short) */
  qty: number;
  entryPrice: number;
  /** Isolated: the position's isolated wallet. Cross: the cross wallet balance */
  walletBalance: number;
  /** Cross only: maintenance margin of the other cross positions (TMM1) */
  otherMaintMargin?: number;
  /** Cross only: unrealized PnL of the other cross positions (UPNL1) */
  otherUnrealizedPnl?: number;
  brackets: readonly LeverageBracket[];
}

/**
 * Liquidation price by Binance's USDⓈ-M formula, one-way mode (only the BOTH terms are non-zero):
 * LP = (WB − TMM1 + UPNL1 + cumB − Side·PosB·EPB) / (PosB·MMRB − Side·PosB).
 * The bracket is the one the position's notional falls in at LP, so it is recomputed until it settles.
 * Returns 0 when the position cannot be liquidated (LP ≤ 0) and NaN when flat.
 */
export function liquidationPrice(input: LiquidationInput): number {
  return liquidationPriceOneWay(
    input.qty,
    input.entryPrice,
    input.walletBalance,
    input.otherMaintMargin ?? 0,
    input.otherUnrealizedPnl ?? 0,
    input.brackets,
  );
}

/** The same with positional arguments (no object per call on the broker's fill path) */
export function liquidationPriceOneWay(
  qty: number,
  entryPrice: number,
  walletBalance: number,
  otherMaintMargin: number,
  otherUnrealizedPnl: number,
  brackets: readonly LeverageBracket[],
): number {
  if (qty === 0) return Number.NaN;
  const side = qty > 0 ? 1 : -1;
  const pos = Math.abs(qty);
  const base = walletBalance - otherMaintMargin + otherUnrealizedPnl;
  // Runs on every fill and funding payment: plain index loops over the table
  let k = bracketIndex(brackets, pos * entryPrice);
  let lp = 0;
  for (let iter = 0; iter < brackets.length + 1; iter++) {
    const bracket = brackets[k] as LeverageBracket;
    lp = (base + bracket.cum - side * pos * entryPrice) / (pos * bracket.maintMarginRatio - side * pos);
    const at = bracketIndex(brackets, pos * Math.max(lp, 0));
    if (at === k) break;
    k = at;
  }
  return Math.max(lp, 0);
}

/** Index of the bracket where floor < notional ≤ cap (the first for 0, the last beyond the table), as bracketFor */
function bracketIndex(brackets: readonly LeverageBracket[], notional: number): number {
  const last = brackets.length - 1;
  for (let k = 0; k < last; k++) if (notional <= (brackets[k] as LeverageBracket).notionalCap) return k;
  return last;
}
