import { checkInput, checkPeriod, type Indicator, nothingToReplace, notStable } from '../../indicator';

/**
 * Relative strength index (Wilder): 100 − 100 / (1 + avgGain / avgLoss), averages seeded with the mean of the first
 * `period` changes, then smoothed as avg = (avg·(period−1) + change) / period.
 * How to read: 0–100; above 70 overbought, below 30 oversold. Stable after `period + 1` inputs.
 * @see https://www.investopedia.com/terms/r/rsi.asp
 */
export class Rsi implements Indicator<number, number> {
  value = Number.NaN;
  private count = 0;
  private prevInput = Number.NaN;
  private avgGain = 0;
  private avgLoss = 0;
  // Snapshot taken before each add, restored by replace()
  private s = { value: Number.NaN, prevInput: Number.NaN, avgGain: 0, avgLoss: 0 };

  constructor(readonly period: number) {
    checkPeriod('RSI', period);
  }

  add(input: number): void {
    checkInput('RSI', input);
    const s = this.s;
    s.value = this.value;
    s.prevInput = this.prevInput;
    s.avgGain = this.avgGain;
    s.avgLoss = this.avgLoss;
    this.count++;
    if (this.count > 1) {
      const change = input - this.prevInput;
      const gain = Math.max(change, 0);
      const loss = change < 0 ? -change : 0;
      const p = this.period;
      if (this.count <= p + 1) {
        this.avgGain += gain;
        this.avgLoss += loss;
        if (this.count === p + 1) {
          this.avgGain /= p;
          this.avgLoss /= p;
        }
      } else {
        this.avgGain = (this.avgGain * (p - 1) + gain) / p;
        this.avgLoss = (this.avgLoss * (p - 1) + loss) / p;
      }
      if (this.count > p) this.value = rsiOf(this.avgGain, this.avgLoss);
    }
    this.prevInput = input;
  }

  replace(input: number): void {
    if (this.count === 0) throw nothingToReplace('RSI');
    this.count--;
    this.value = this.s.value;
    this.prevInput = this.s.prevInput;
    this.avgGain = this.s.avgGain;
    this.avgLoss = this.s.avgLoss;
    this.add(input);
  }

  getRequiredInputs(): number {
    return this.period + 1;
  }

  isStable(): boolean {
    return this.count > this.period;
  }

  getResult(): number | null {
    return this.isStable() ? this.value : null;
  }

  getResultOrThrow(): number {
    if (!this.isStable()) throw notStable('RSI', this.period + 1);
    return this.value;
  }
}

function rsiOf(avgGain: number, avgLoss: number): number {
  if (avgLoss === 0) return avgGain === 0 ? 50 : 100;
  return 100 - 100 / (1 + avgGain / avgLoss);
}

/** Batch RSI; same arithmetic as the streaming form, NaN before stable */
export function rsiBatch(values: Float64Array, period: number): Float64Array {
  checkPeriod('RSI', period);
  const out = new Float64Array(values.length).fill(Number.NaN);
  let avgGain = 0;
  let avgLoss = 0;
  for (let i = 0; i < values.length; i++) {
    checkInput('RSI', values[i] as number);
    if (i === 0) continue;
    const change = (values[i] as number) - (values[i - 1] as number);
    const gain = Math.max(change, 0);
    const loss = change < 0 ? -change : 0;
    if (i <= period) {
      avgGain += gain;
      avgLoss += loss;
      if (i === period) {
        avgGain /= period;
        avgLoss /= period;
      }
    } else {
      avgGain = (avgGain * (period - 1) + gain) / period;
      avgLoss = (avgLoss * (period - 1) + loss) / period;
    }
    if (i >= period) out[i] = rsiOf(avgGain, avgLoss);
  }
  return out;
}
