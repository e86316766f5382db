import { figures } from './account-figures';
import type { ExchangeState } from './state';
import type { Account } from './types';

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

/**
 * ADL quantile (0-4) of each open position of `account`, keyed `${symbol}:${positionSide}`, ranked against the
 * same symbol and side of every account. Binance refreshes these every 30 s: they are computed at the marks of the
 * last 30 s boundary
 */
export function accountAdlQuantiles(s: ExchangeState, account: Account): Map<string, number> {
  const t = Math.floor(s.clock.now() / 30_000) * 30_000;
  const groups = new Map<string, AdlCandidate[]>();
  for (const a of s.accounts.values()) {
    if (a.positions.size === 0) continue;
    const fig = figures(s, a, t);
    for (const pf of fig.positions) {
      const p = pf.position;
      if (p.amt.isZero()) continue;
      const isolated = pf.marginType === 'ISOLATED';
      const long = p.positionSide === 'LONG' || (p.positionSide === 'BOTH' && p.amt.gt(0));
      const group = `${p.symbol}:${long ? 'LONG' : 'SHORT'}`;
      const list = groups.get(group) ?? [];
      list.push({
        key: `${a.id}:${p.symbol}:${p.positionSide}`,
        unrealizedPnl: pf.unrealizedPnl.toNumber(),
        positionMargin: (isolated ? p.isolatedWallet : pf.initialMargin).toNumber(),
        notional: pf.notional.toNumber(),
        marginBalance: (isolated
          ? p.isolatedWallet.plus(pf.unrealizedPnl)
          : fig.crossWalletBalance.plus(fig.crossUnPnl)
        ).toNumber(),
      });
      groups.set(group, list);
    }
  }
  const out = new Map<string, number>();
  const prefix = `${account.id}:`;
  for (const list of groups.values()) {
    for (const [key, q] of adlQuantiles(list)) {
      if (key.startsWith(prefix)) out.set(key.slice(prefix.length), q);
    }
  }
  return out;
}
