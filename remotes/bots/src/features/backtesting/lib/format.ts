import type { BacktestMetrics } from '@kestrel/contracts/backtest';
import {
  formatInteger,
  formatPercent,
  formatRatio,
  formatUsdt,
  NO_VALUE,
  type Tone,
  toneOf,
} from '@kestrel/ui';

/** Gross profit / gross loss; the engine sends null when no trade lost */
export function formatProfitFactor(value: number | null, tradeCount: number): string {
  if (value === null) return tradeCount > 0 ? '∞' : NO_VALUE;
  return formatRatio(value);
}

export interface MetricCard {
  key: string;
  label: string;
  value: string;
  tone: Tone;
  /** What the figure means, for the card's description */
  hint: string;
}

/** The result cards, in the order a trader reads them: return, risk, risk-adjusted, trading, costs */
export function metricCards(m: BacktestMetrics): MetricCard[] {
  return [
    {
      key: 'totalReturn',
      label: 'Total return',
      value: formatPercent(m.totalReturn, { signed: true }),
      tone: toneOf(m.totalReturn),
      hint: `${formatUsdt(m.initialBalance)} → ${formatUsdt(m.finalEquity)} USDT`,
    },
    {
      key: 'annualisedReturn',
      label: 'Annualised return',
      value: formatPercent(m.annualisedReturn, { signed: true }),
      tone: toneOf(m.annualisedReturn),
      hint: 'Compounded over a 365-day year',
    },
    {
      key: 'maxDrawdown',
      label: 'Max drawdown',
      // A fall: shown as a loss even though the engine reports it as a positive fraction
      value: formatPercent(m.maxDrawdown === 0 ? 0 : -Math.abs(m.maxDrawdown)),
      tone: m.maxDrawdown > 0 ? 'negative' : 'neutral',
      hint: 'Largest fall from an equity peak',
    },
    {
      key: 'sharpe',
      label: 'Sharpe',
      value: formatRatio(m.sharpe),
      tone: toneOf(m.sharpe),
      hint: 'Annualised, risk-free rate 0',
    },
    {
      key: 'sortino',
      label: 'Sortino',
      value: formatRatio(m.sortino),
      tone: toneOf(m.sortino),
      hint: 'Like Sharpe, downside volatility only',
    },
    {
      key: 'calmar',
      label: 'Calmar',
      value: formatRatio(m.calmar),
      tone: toneOf(m.calmar),
      hint: 'Annualised return / max drawdown',
    },
    {
      key: 'winRate',
      label: 'Win rate',
      value: m.tradeCount > 0 ? formatPercent(m.winRate) : NO_VALUE,
      tone: 'neutral',
      hint: 'Share of closed trades with a net profit',
    },
    {
      key: 'profitFactor',
      label: 'Profit factor',
      value: formatProfitFactor(m.profitFactor, m.tradeCount),
      tone:
        m.profitFactor === null ? (m.tradeCount > 0 ? 'positive' : 'neutral') : toneOf(m.profitFactor - 1),
      hint: 'Gross profit / gross loss',
    },
    {
      key: 'exposure',
      label: 'Exposure',
      value: formatPercent(m.exposure),
      tone: 'neutral',
      hint: 'Share of bars with an open position',
    },
    {
      key: 'feesPaid',
      label: 'Fees paid',
      value: formatUsdt(m.feesPaid),
      tone: 'neutral',
      hint: 'USDT, maker and taker',
    },
    {
      key: 'fundingPaid',
      label: m.fundingPaid < 0 ? 'Funding received' : 'Funding paid',
      value: formatUsdt(Math.abs(m.fundingPaid)),
      tone: toneOf(-m.fundingPaid),
      hint: "USDT, at the exchange's settled rates",
    },
    {
      key: 'tradeCount',
      label: 'Trades',
      value: formatInteger(m.tradeCount),
      tone: 'neutral',
      hint: m.liquidations > 0 ? `${formatInteger(m.liquidations)} liquidated` : 'Closed round trips',
    },
  ];
}
