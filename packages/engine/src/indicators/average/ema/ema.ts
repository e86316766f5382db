import { checkInput, checkPeriod, nothingToReplace, PeriodIndicator } from '../../indicator';

/**
 * Exponential moving average with smoothing 2 / (period + 1), seeded with the SMA of the first `period` inputs
 * (as TA-Lib does). How to read: reacts faster than the SMA; crossovers of a fast and a slow EMA mark trend turns.
 * @see https://www.investopedia.com/terms/e/ema.asp
 */
export class Ema extends PeriodIndicator<number> {
  readonly k: number;
  private seedSum = 0;
  private prevValue = Number.NaN;
  private prevSeedSum = 0;

  constructor(period: number) {
    super('EMA', period);
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
}

/** Batch EMA; same arithmetic as the streaming form, NaN before stable */
export function emaBatch(values: Float64Array, period: number): Float64Array {
  checkPeriod('EMA', period);
  const k = 2 / (period + 1);
  const n = values.length;
  const out = new Float64Array(n);
  let seed = 0;
  const warm = Math.min(period - 1, n);
  for (let i = 0; i < warm; i++) {
    seed += values[i] as number;
    out[i] = Number.NaN;
  }
  if (n < period) return checked(out, values);
  seed += values[period - 1] as number;
  let ema = seed / period;
  out[period - 1] = ema;
  // Tight loop: a non-finite input poisons every later value, so one check at the end finds it
  for (let i = period; i < n; i++) {
    ema = ((values[i] as number) - ema) * k + ema;
    out[i] = ema;
  }
  return checked(out, values);
}

function checked(out: Float64Array, values: Float64Array): Float64Array {
  const n = values.length;
  if (n > 0 && !Number.isFinite(out[n - 1] as number) && n >= 1) {
    for (let i = 0; i < n; i++) checkInput('EMA', values[i] as number);
  }
  return out;
}
