import type { BarSeries } from '../../../bars/bars';
import { type BarInput, checkInput, checkPeriod, nothingToReplace, PeriodIndicator } from '../../indicator';

/**
 * Average true range (Wilder). True range = max(high − low, |high − prevClose|, |low − prevClose|), the first bar's
 * is high − low; ATR is seeded with the mean of the first `period` ranges, then (atr·(period−1) + tr) / period.
 * How to read: typical bar size in price units; used for stop distances. Stable after `period` inputs.
 * @see https://www.investopedia.com/terms/a/atr.asp
 */
export class Atr extends PeriodIndicator<BarInput> {
  private prevClose = Number.NaN;
  private acc = 0;
  private s = { value: Number.NaN, prevClose: Number.NaN, acc: 0 };

  constructor(period = 14) {
    super('ATR', period);
  }

  add(input: BarInput): void {
    checkInput('ATR', input.high);
    checkInput('ATR', input.low);
    checkInput('ATR', input.close);
    this.s.value = this.value;
    this.s.prevClose = this.prevClose;
    this.s.acc = this.acc;
    const tr = trueRange(input.high, input.low, this.prevClose);
    this.count++;
    const p = this.period;
    if (this.count < p) this.acc += tr;
    else if (this.count === p) this.value = (this.acc + tr) / p;
    else this.value = (this.value * (p - 1) + tr) / p;
    this.prevClose = input.close;
  }

  replace(input: BarInput): void {
    if (this.count === 0) throw nothingToReplace('ATR');
    this.count--;
    this.value = this.s.value;
    this.prevClose = this.s.prevClose;
    this.acc = this.s.acc;
    this.add(input);
  }
}

function trueRange(high: number, low: number, prevClose: number): number {
  if (Number.isNaN(prevClose)) return high - low;
  return Math.max(high - low, Math.abs(high - prevClose), Math.abs(low - prevClose));
}

/** Batch ATR over a bar series; same arithmetic as the streaming form */
export function atrBatch(bars: BarSeries, period = 14): Float64Array {
  checkPeriod('ATR', period);
  const n = bars.length;
  const out = new Float64Array(n).fill(Number.NaN);
  let acc = 0;
  let atr = Number.NaN;
  for (let i = 0; i < n; i++) {
    const tr = trueRange(
      bars.high[i] as number,
      bars.low[i] as number,
      i === 0 ? Number.NaN : (bars.close[i - 1] as number),
    );
    if (i < period - 1) {
      acc += tr;
      continue;
    }
    atr = i === period - 1 ? (acc + tr) / period : (atr * (period - 1) + tr) / period;
    out[i] = atr;
  }
  return out;
}
