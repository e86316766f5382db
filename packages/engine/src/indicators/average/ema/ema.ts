import { checkInput, checkPeriod, type Indicator, nothingToReplace, notStable } from '../../indicator';

/**
 * Exponential moving average with smoothing 2 / (period + 1), seeded with the SMA of the first `period` inputs
 * (as TA-Lib does). How to read: reacts faster than the SMA; crossovers of a fast and a slow EMA mark trend turns.
 * @see https://www.investopedia.com/terms/e/ema.asp
 */
export class Ema implements Indicator<number, number> {
  /** Current value, NaN until stable */
  value = Number.NaN;
  readonly k: number;
  private count = 0;
  private seedSum = 0;
  private prevValue = Number.NaN;
  private prevSeedSum = 0;

  constructor(readonly period: number) {
    checkPeriod('EMA', period);
    this.k = 2 / (period + 1);
  }

  add(input: number): void {
    checkInput('EMA', input);
    this.prevValue = this.value;
    this.prevSeedSum = this.seedSum;
    this.count++;
    if (this.count < this.period) {
      this.seedSum += input;
    } else if (this.count === this.period) {
      this.seedSum += input;
      this.value = this.seedSum / this.period;
    } else {
      this.value = (input - this.value) * this.k + this.value;
    }
  }

  replace(input: number): void {
    if (this.count === 0) throw nothingToReplace('EMA');
    this.count--;
    this.value = this.prevValue;
    this.seedSum = this.prevSeedSum;
    this.add(input);
  }

  getRequiredInputs(): number {
    return this.period;
  }

  isStable(): boolean {
    return this.count >= this.period;
  }

  getResult(): number | null {
    return this.isStable() ? this.value : null;
  }

  getResultOrThrow(): number {
    if (!this.isStable()) throw notStable('EMA', this.period);
    return this.value;
  }
}

/** Batch EMA; same arithmetic as the streaming form, NaN before stable */
export function emaBatch(values: Float64Array, period: number): Float64Array {
  checkPeriod('EMA', period);
  const k = 2 / (period + 1);
  const out = new Float64Array(values.length).fill(Number.NaN);
  let seed = 0;
  let ema = Number.NaN;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    checkInput('EMA', v);
    if (i < period - 1) {
      seed += v;
      continue;
    }
    if (i === period - 1) {
      seed += v;
      ema = seed / period;
    } else {
      ema = (v - ema) * k + ema;
    }
    out[i] = ema;
  }
  return out;
}
