import type { BarSeries } from '../../../bars/bars';
import { type BarInput, checkInput, type Indicator, nothingToReplace, notStable } from '../../indicator';

/**
 * Volume-weighted average price since the first input: Σ(typical price × volume) / Σ volume, with typical price
 * (high + low + close) / 3. How to read: the average price paid; price above VWAP means buyers are in control.
 * Stable once some volume has been seen.
 * @see https://www.investopedia.com/terms/v/vwap.asp
 */
export class Vwap implements Indicator<BarInput, number> {
  value = Number.NaN;
  private count = 0;
  private pv = 0;
  private vol = 0;
  private lastPv = 0;
  private lastVol = 0;

  add(input: BarInput): void {
    checkInput('VWAP', input.high);
    checkInput('VWAP', input.low);
    checkInput('VWAP', input.close);
    checkInput('VWAP', input.volume);
    this.count++;
    this.lastPv = ((input.high + input.low + input.close) / 3) * input.volume;
    this.lastVol = input.volume;
    this.pv += this.lastPv;
    this.vol += this.lastVol;
    this.value = this.vol > 0 ? this.pv / this.vol : Number.NaN;
  }

  replace(input: BarInput): void {
    if (this.count === 0) throw nothingToReplace('VWAP');
    this.count--;
    this.pv -= this.lastPv;
    this.vol -= this.lastVol;
    this.add(input);
  }

  getRequiredInputs(): number {
    return 1;
  }

  isStable(): boolean {
    return this.vol > 0;
  }

  getResult(): number | null {
    return this.isStable() ? this.value : null;
  }

  getResultOrThrow(): number {
    if (!this.isStable()) throw notStable('VWAP', 1);
    return this.value;
  }
}

/** Batch VWAP over a bar series; NaN until volume is seen */
export function vwapBatch(bars: BarSeries): Float64Array {
  const n = bars.length;
  const out = new Float64Array(n).fill(Number.NaN);
  let pv = 0;
  let vol = 0;
  for (let i = 0; i < n; i++) {
    const v = bars.volume[i] as number;
    pv += (((bars.high[i] as number) + (bars.low[i] as number) + (bars.close[i] as number)) / 3) * v;
    vol += v;
    if (vol > 0) out[i] = pv / vol;
  }
  return out;
}
