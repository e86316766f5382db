/**
 * Binance's auto-deleveraging queue, as GET /fapi/v1/adlQuantile and positionRisk `adl` show it. A position's
 * ranking is PnL% × effective leverage when it is in profit and PnL% ÷ effective leverage when it is not, with
 * PnL% = unrealized PnL / position margin and effective leverage = |notional| / margin balance. Positions of one
 * symbol and side are compared across all accounts: profitable ones split into five quantiles (4 = deleveraged
 * first), the others are 0.
 */

export interface AdlCandidate {
  /** Any key the caller wants back */
  key: string;
  unrealizedPnl: number;
  /** Isolated wallet, or notional / leverage in cross */
  positionMargin: number;
  notional: number;
  /** Wallet + unrealized PnL of the margin the position draws on */
  marginBalance: number;
}

export function adlRanking(c: AdlCandidate): number {
  if (c.positionMargin <= 0 || c.marginBalance <= 0) return 0;
  const pnlPercent = c.unrealizedPnl / c.positionMargin;
  const effectiveLeverage = Math.abs(c.notional) / c.marginBalance;
  if (effectiveLeverage === 0) return 0;
  return pnlPercent > 0 ? pnlPercent * effectiveLeverage : pnlPercent / effectiveLeverage;
}

/** Quantile 0-4 of each candidate among those of the same symbol and side */
export function adlQuantiles(candidates: readonly AdlCandidate[]): Map<string, number> {
  const out = new Map<string, number>();
  const profitable = candidates
    .filter((c) => c.unrealizedPnl > 0)
    .map((c) => ({ key: c.key, rank: adlRanking(c) }))
    .sort((a, b) => a.rank - b.rank);
  for (const c of candidates) out.set(c.key, 0);
  profitable.forEach((c, i) => {
    // The share of profitable positions ranked at or below this one, in fifths: the top fifth is 4
    out.set(c.key, Math.min(4, Math.ceil(((i + 1) / profitable.length) * 5) - 1));
  });
  return out;
}
