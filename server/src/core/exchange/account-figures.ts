import type { PnlSummary, RealizedPnl, RiskAssessment } from '@kestrel/contracts';
import { Decimal } from 'decimal.js';
import { sumDecimals } from './decimal-sum';
import type { AccountSnapshot, IncomeEntry, Position } from './exchange-adapter';

/** Own configuration: the exchange simulator sets the shared default one when it runs in the same process */
const Exact = Decimal.clone({ precision: 64 });

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
      const { figures, liquidationDistancePercent } = positionLiquidation(p);
      return {
        ...figures,
        liquidationDistancePercent:
          liquidationDistancePercent === null ? null : liquidationDistancePercent.toFixed(2),
      };
    }),
  };
}

/**
 * An open position's figures as every risk reading shows them, and how far its mark price is from its liquidation
 * price (the mark's absolute distance, and that as a percent of the mark; null when either price is not positive)
 */
export function positionLiquidation(p: Position): {
  figures: Pick<
    Position,
    'symbol' | 'positionSide' | 'amount' | 'notional' | 'markPrice' | 'liquidationPrice'
  >;
  liquidationDistance: number | null;
  liquidationDistancePercent: number | null;
} {
  const mark = Number(p.markPrice);
  const liq = Number(p.liquidationPrice);
  const distance = liq > 0 && mark > 0 ? Math.abs(mark - liq) : null;
  return {
    figures: {
      symbol: p.symbol,
      positionSide: p.positionSide,
      amount: p.amount,
      notional: p.notional,
      markPrice: p.markPrice,
      liquidationPrice: p.liquidationPrice,
    },
    liquidationDistance: distance,
    liquidationDistancePercent: distance === null ? null : (distance / mark) * 100,
  };
}

/** a / b to `places` decimals, "0" when b is not positive */
export function share(a: Decimal.Value, b: Decimal.Value, places = 4): string {
  const d = new Exact(b);
  if (d.lte(0)) return '0';
  const q = new Exact(a).div(d).toFixed(places);
  return Number(q) === 0 ? '0' : q;
}

/**
 * Maintenance margin / margin balance to 4 decimals: "0" without maintenance margin, "1.0000" (liquidation) when
 * margin is held but the margin balance is gone (zero or negative), where the quotient means nothing
 */
export function marginRatio(maintenanceMargin: string, marginBalance: string): string {
  const maint = new Exact(maintenanceMargin);
  if (maint.lte(0)) return '0';
  if (new Exact(marginBalance).lte(0)) return '1.0000';
  return share(maint, marginBalance);
}

/** Realized PnL, commission and funding of the entries, and their sum */
export function realizedPnl(
  income: readonly Pick<IncomeEntry, 'incomeType' | 'income'>[],
  window: { from: number; to: number },
): RealizedPnl {
  const pick = (type: string) =>
    sumDecimals(income.filter((r) => r.incomeType === type).map((r) => r.income));
  const realized = pick('REALIZED_PNL');
  const commission = pick('COMMISSION');
  const fundingFee = pick('FUNDING_FEE');
  return {
    ...window,
    realizedPnl: realized,
    commission,
    fundingFee,
    net: sumDecimals([realized, commission, fundingFee]),
  };
}
