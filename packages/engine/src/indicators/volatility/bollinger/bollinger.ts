import { checkInput, checkPeriod, type Indicator, nothingToReplace, notStable } from '../../indicator';

export interface BollingerResult {
  upper: number;
  middle: number;
  lower: number;
}

export interface BollingerColumns {
  upper: Float64Array;
  middle: Float64Array;
  lower: Float64Array;
}

/**
 * Bollinger bands: SMA(period) ± k × population standard deviation of the same window.
 * How to read: price at the upper band is stretched up; narrow bands precede breakouts. Stable after `period`.
 * The deviation is recomputed over the window each time (period is small) instead of a running sum of squares,
 * which would lose precision at high prices.
 * @see https://www.investopedia.com/terms/b/bollingerbands.asp
 */
export class Bollinger implements Indicator<number, BollingerResult> {
  private readonly window: Float64Array;
  private count = 0;
  private last = Number.NaN;

  constructor(
    readonly period = 20,
    readonly k = 2,
  ) {
    checkPeriod('Bollinger', period);
    this.window = new Float64Array(period);
  }

  add(input: number): void {
    checkInput('Bollinger', input);
    const slot = this.count % this.period;
    this.last = this.window[slot] as number;
    this.window[slot] = input;
    this.count++;
  }

  replace(input: number): void {
    if (this.count === 0) throw nothingToReplace('Bollinger');
    this.count--;
    this.window[this.count % this.period] = this.last;
    this.add(input);
  }

  getRequiredInputs(): number {
    return this.period;
  }

  isStable(): boolean {
    return this.count >= this.period;
  }

  getResult(): BollingerResult | null {
    if (!this.isStable()) return null;
    // Oldest first, so the sums run in the same order as the batch form
    const start = this.count % this.period;
    return bands(this.window, start, this.period, this.k);
  }

  getResultOrThrow(): BollingerResult {
    const result = this.getResult();
    if (result === null) throw notStable('Bollinger', this.period);
    return result;
  }
}

function bands(ring: Float64Array, start: number, period: number, k: number): BollingerResult {
  let sum = 0;
  for (let j = 0; j < period; j++) sum += ring[(start + j) % period] as number;
  const middle = sum / period;
  let sq = 0;
  for (let j = 0; j < period; j++) {
    const d = (ring[(start + j) % period] as number) - middle;
    sq += d * d;
  }
  const sd = Math.sqrt(sq / period);
  return { upper: middle + k * sd, middle, lower: middle - k * sd };
}

/** Batch Bollinger bands; NaN before stable */
export function bollingerBatch(values: Float64Array, period = 20, k = 2): BollingerColumns {
  checkPeriod('Bollinger', period);
  const n = values.length;
  const out: BollingerColumns = {
    upper: new Float64Array(n).fill(Number.NaN),
    middle: new Float64Array(n).fill(Number.NaN),
    lower: new Float64Array(n).fill(Number.NaN),
  };
  for (let i = period - 1; i < n; i++) {
    const r = bands(values.subarray(i - period + 1, i + 1), 0, period, k);
    out.upper[i] = r.upper;
    out.middle[i] = r.middle;
    out.lower[i] = r.lower;
  }
  for (let i = 0; i < n; i++) checkInput('Bollinger', values[i] as number);
  return out;
}
