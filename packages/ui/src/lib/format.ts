/*
 * How figures read on every Kestrel screen. Always en-US (a dot for decimals, commas for thousands), whatever the
 * browser's locale: traders compare these numbers with the exchange's, and a column must read the same for all.
 * No figure ever shows a signed zero: -0, and anything that rounds to zero at the shown precision, reads "0.00".
 */

/** Shown where a figure does not exist (no trades, a ratio over zero, not loaded) */
export const NO_VALUE = '—';

/** How a figure reads for the trader: profit (green), loss (red) or neither */
export type Tone = 'positive' | 'negative' | 'neutral';

type Figure = number | null | undefined;

function finite(value: Figure): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

const cache = new Map<string, Intl.NumberFormat>();

/** A cached en-US formatter with `min`…`max` decimals; `signed` adds "+" to gains and never signs a zero */
function formatter(min: number, max: number, { signed = false, percent = false } = {}): Intl.NumberFormat {
  const key = `${min}:${max}:${signed}:${percent}`;
  let format = cache.get(key);
  if (!format) {
    format = new Intl.NumberFormat('en-US', {
      minimumFractionDigits: min,
      maximumFractionDigits: max,
      // Applied after rounding: -0.004 shown with two decimals is "0.00", not "-0.00"
      signDisplay: signed ? 'exceptZero' : 'negative',
      ...(percent ? { style: 'percent' } : {}),
    });
    cache.set(key, format);
  }
  return format;
}

/**
 * Decimals of an exchange step (tick size, lot step) as Binance sends it: "0.10" → 1, "0.001" → 3, "1" → 0,
 * 1e-8 → 8
 */
export function stepDecimals(step: string | number): number {
  const text = typeof step === 'number' ? step.toFixed(12) : step;
  const fraction = text.split('.')[1]?.replace(/0+$/, '') ?? '';
  return fraction.length;
}

export interface PrecisionOptions {
  /** Decimals the symbol uses (from its tick size or lot step, see `stepDecimals`) */
  precision?: number | undefined;
}

/**
 * A price. With the symbol's precision: exactly that many decimals, as the exchange shows it. Without: the
 * precision its size calls for (BTC 2 decimals, a 1-dollar coin 4, a 0.0001 coin 6 significant places).
 */
export function formatPrice(value: Figure, { precision }: PrecisionOptions = {}): string {
  if (!finite(value)) return NO_VALUE;
  if (precision !== undefined) return formatter(precision, precision).format(value);
  const abs = Math.abs(value);
  const digits = abs >= 1_000 ? 2 : abs >= 1 ? 4 : 6;
  return formatter(2, digits).format(value);
}

/** A contract quantity: the symbol's lot precision when known, otherwise as many decimals as it has (up to 8) */
export function formatQuantity(value: Figure, { precision }: PrecisionOptions = {}): string {
  if (!finite(value)) return NO_VALUE;
  if (precision !== undefined) return formatter(precision, precision).format(value);
  return formatter(0, 8).format(value);
}

/** USDT (the quote asset): two decimals, thousands separated; `signed` adds "+" to gains */
export function formatUsdt(value: Figure, { signed = false } = {}): string {
  if (!finite(value)) return NO_VALUE;
  return formatter(2, 2, { signed }).format(value);
}

/** Assets worth one dollar: their amounts read as money, with at least cents */
const STABLECOINS = new Set(['USDT', 'USDC', 'BUSD', 'FDUSD', 'BFUSD']);

/**
 * An amount of an asset as the exchange booked it (a fee, a funding payment, an income entry, a sum of them): every
 * decimal it has, up to 8, so the same fee reads the same on every screen ("0.14992912 USDT", never "0.15" here
 * and "0.14992912" there); a stablecoin keeps at least cents ("12.30"). `signed` adds "+" to gains
 */
export function formatAssetAmount(value: Figure, asset: string, { signed = false } = {}): string {
  if (!finite(value)) return NO_VALUE;
  return formatter(STABLECOINS.has(asset) ? 2 : 0, 8, { signed }).format(value);
}

/** A fraction as a percentage: 0.1234 → "12.34%"; `signed` adds "+" to gains */
export function formatPercent(fraction: Figure, { signed = false, digits = 2 } = {}): string {
  if (!finite(fraction)) return NO_VALUE;
  return formatter(digits, digits, { signed, percent: true }).format(fraction);
}

/** A ratio such as Sharpe: two decimals */
export function formatRatio(value: Figure): string {
  return finite(value) ? formatter(2, 2).format(value) : NO_VALUE;
}

/** A count: no decimals, thousands separated */
export function formatInteger(value: Figure): string {
  return finite(value) ? formatter(0, 0).format(value) : NO_VALUE;
}

/**
 * Green for a gain, red for a loss. `digits`: the decimals the figure is shown with, so a value that reads as zero
 * is never coloured (-0.004 USDT shows "0.00", neutral); without it only float noise counts as zero
 */
export function toneOf(value: Figure, { digits }: { digits?: number } = {}): Tone {
  if (!finite(value)) return 'neutral';
  const zero = digits === undefined ? Math.abs(value) < 1e-9 : Math.abs(value) < 0.5 * 10 ** -digits;
  if (zero) return 'neutral';
  return value > 0 ? 'positive' : 'negative';
}

/** Text colour of a tone (tokens: success = profit, destructive = loss); a class of the design system */
export function toneClassName(tone: Tone): string {
  if (tone === 'positive') return 'ui:text-success';
  if (tone === 'negative') return 'ui:text-destructive';
  return '';
}

/** Figures a trader compares in columns: monospace, tabular digits, right-aligned */
export const figureClassName = 'ui:font-mono ui:tabular-nums ui:text-right';

export interface Pnl {
  /** "+12.50", "-3.20", "0.00" */
  text: string;
  tone: Tone;
  /** The tone's text colour */
  className: string;
}

/** A profit or loss in USDT: signed, and coloured by what it reads as (a loss that rounds to 0.00 is not red) */
export function formatPnl(value: Figure): Pnl {
  const tone = toneOf(value, { digits: 2 });
  return { text: formatUsdt(value, { signed: true }), tone, className: toneClassName(tone) };
}

/** UTC date and time, as every time on a trading screen: "2025-01-31 14:05" */
export function formatDateTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

/** UTC date: "2025-01-31" */
export function formatDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
