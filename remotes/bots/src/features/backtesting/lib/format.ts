import type { BacktestMetrics } from '@kestrel/contracts';

/** Shown where a figure does not exist (no trades, a ratio over zero) */
export const NO_VALUE = '—';

/** How a figure reads for the trader: profit (green), loss (red) or neither */
export type Tone = 'positive' | 'negative' | 'neutral';

const percent = new Intl.NumberFormat('en-US', {
  style: 'percent',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const signedPercent = new Intl.NumberFormat('en-US', {
  style: 'percent',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
  signDisplay: 'exceptZero',
});
const ratio = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const money = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const signedMoney = new Intl.NumberFormat('en-US', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
  signDisplay: 'exceptZero',
});
const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

function finite(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** A fraction as a percentage: 0.1234 → "12.34%"; `signed` adds "+" to gains */
export function formatPercent(fraction: number | null | undefined, { signed = false } = {}): string {
  if (!finite(fraction)) return NO_VALUE;
  return (signed ? signedPercent : percent).format(fraction);
}

/** A ratio such as Sharpe: two decimals */
export function formatRatio(value: number | null | undefined): string {
  return finite(value) ? ratio.format(value) : NO_VALUE;
}

/** Quote-asset money, two decimals with thousands separators; `signed` adds "+" to gains */
export function formatMoney(value: number | null | undefined, { signed = false } = {}): string {
  if (!finite(value)) return NO_VALUE;
  // -0.001 would print as "-0.00": a sign on a zero figure only misleads
  const rounded = Math.round(value * 100) / 100 || 0;
  return (signed ? signedMoney : money).format(rounded);
}

export function formatInteger(value: number | null | undefined): string {
  return finite(value) ? integer.format(value) : NO_VALUE;
}

/** A price with the precision its size calls for (BTC 2 decimals, a 0.0001 coin 6 significant digits) */
export function formatPrice(value: number | null | undefined): string {
  if (!finite(value)) return NO_VALUE;
  const abs = Math.abs(value);
  const digits = abs >= 1_000 ? 2 : abs >= 1 ? 4 : 6;
  return value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: digits });
}

/** Gross profit / gross loss; the engine sends null when no trade lost */
export function formatProfitFactor(value: number | null, tradeCount: number): string {
  if (value === null) return tradeCount > 0 ? '∞' : NO_VALUE;
  return formatRatio(value);
}

/** Green for a gain, red for a loss; tiny float noise reads as zero */
export function toneOf(value: number | null | undefined): Tone {
  if (!finite(value) || Math.abs(value) < 1e-9) return 'neutral';
  return value > 0 ? 'positive' : 'negative';
}

/** UTC date and time, as every time on a trading screen: "2025-01-31 14:05" */
export function formatDateTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

export function formatDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
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
      hint: `${formatMoney(m.initialBalance)} → ${formatMoney(m.finalEquity)} USDT`,
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
      value: formatMoney(m.feesPaid),
      tone: 'neutral',
      hint: 'USDT, maker and taker',
    },
    {
      key: 'fundingPaid',
      label: m.fundingPaid < 0 ? 'Funding received' : 'Funding paid',
      value: formatMoney(Math.abs(m.fundingPaid)),
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
