import type { PnlSummary, RiskAssessment } from '@kestrel/contracts';
import { sumDecimals } from './decimal-sum';
import type { AccountSnapshot, IncomeEntry, Position } from './exchange-adapter';

/** A position with a non-zero amount; the exchange also lists flat ones (each symbol, each side in hedge mode) */
export function isOpenPosition(position: Pick<Position, 'amount'>): boolean {
  return Number(position.amount) !== 0;
}

/** Realized figures from income entries, per symbol and in total; unrealized from the account now */
export function pnlSummary(
  income: readonly Pick<IncomeEntry, 'symbol' | 'incomeType' | 'income' | 'asset' | 'time'>[],
  account: AccountSnapshot,
  window: { from: number; to: number },
): PnlSummary {
  const kinds = { realizedPnl: 'REALIZED_PNL', commission: 'COMMISSION', fundingFee: 'FUNDING_FEE' } as const;
  const pick = (rows: readonly Pick<IncomeEntry, 'incomeType' | 'income'>[], type: string) =>
    sumDecimals(rows.filter((r) => r.incomeType === type).map((r) => r.income));
  const relevant = income.filter((r) => Object.values(kinds).includes(r.incomeType as never));
  const symbols = [...new Set(relevant.map((r) => r.symbol).filter(Boolean))].sort();
  const realizedPnl = pick(relevant, kinds.realizedPnl);
  const commission = pick(relevant, kinds.commission);
  const fundingFee = pick(relevant, kinds.fundingFee);
  return {
    ...window,
    realizedPnl,
    commission,
    fundingFee,
    netRealized: sumDecimals([realizedPnl, commission, fundingFee]),
    unrealizedPnl: account.totalUnrealizedPnl,
    bySymbol: symbols.map((symbol) => {
      const rows = relevant.filter((r) => r.symbol === symbol);
      return {
        symbol,
        realizedPnl: pick(rows, kinds.realizedPnl),
        commission: pick(rows, kinds.commission),
        fundingFee: pick(rows, kinds.fundingFee),
      };
    }),
  };
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);

/** Margin ratio, effective leverage and each open position's distance to liquidation */
export function riskAssessment(account: AccountSnapshot, positions: readonly Position[]): RiskAssessment {
  const open = positions.filter(isOpenPosition);
  const marginBalance = Number(account.totalMarginBalance);
  const marginRatio = ratio(Number(account.totalMaintMargin), marginBalance);
  const notional = open.reduce((acc, p) => acc + Math.abs(Number(p.notional)), 0);
  const level =
    open.length === 0
      ? 'none'
      : marginRatio >= 0.8 || marginBalance <= 0
        ? 'critical'
        : marginRatio >= 0.6
          ? 'high'
          : marginRatio >= 0.3
            ? 'medium'
            : 'low';
  return {
    level,
    marginRatio: marginRatio.toFixed(4),
    effectiveLeverage: ratio(notional, marginBalance).toFixed(2),
    totalMarginBalance: account.totalMarginBalance,
    totalMaintMargin: account.totalMaintMargin,
    totalInitialMargin: account.totalInitialMargin,
    positions: open.map((p) => {
      const mark = Number(p.markPrice);
      const liq = Number(p.liquidationPrice);
      return {
        symbol: p.symbol,
        positionSide: p.positionSide,
        amount: p.amount,
        notional: p.notional,
        markPrice: p.markPrice,
        liquidationPrice: p.liquidationPrice,
        liquidationDistancePercent:
          liq > 0 && mark > 0 ? ((Math.abs(mark - liq) / mark) * 100).toFixed(2) : null,
      };
    }),
  };
}
