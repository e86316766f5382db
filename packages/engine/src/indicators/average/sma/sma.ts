import { checkInput, checkPeriod, nothingToReplace, PeriodIndicator } from '../../indicator';

/**
 * Simple moving average: mean of the last `period` inputs.
 * How to read: price above its SMA means the recent trend is up. Stable after `period` inputs.
 * @see https://www.investopedia.com/terms/s/sma.asp
 */
export class Sma extends PeriodIndicator<number> {
  private readonly window: Float64Array;
  private sum = 0;
  private last = Number.NaN;

  constructor(period: number) {
    super('SMA', period);
    this.window = new Float64Array(period);
  }

  add(input: number): void {
    checkInput('SMA', input);
    const slot = this.count % this.period;
    // Keep the value leaving the window so replace() can undo this add
    this.last = this.window[slot] as number;
    if (this.count >= this.period) this.sum -= this.last;
    this.window[slot] = input;
    this.sum += input;
    this.count++;
    this.value = this.count >= this.period ? this.sum / this.period : Number.NaN;
  }

  replace(input: number): void {
    if (this.count === 0) throw nothingToReplace('SMA');
    this.count--;
    const slot = this.count % this.period;
    this.sum -= this.window[slot] as number;
    this.window[slot] = this.last;
    if (this.count >= this.period) this.sum += this.last;
    this.add(input);
  }
}

/** Batch SMA over a whole series; same arithmetic as the streaming form, NaN before stable */
export function smaBatch(values: Float64Array, period: number): Float64Array {
  checkPeriod('SMA', period);
  const out = new Float64Array(values.length).fill(Number.NaN);
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    checkInput('SMA', v);
    if (i >= period) sum -= values[i - period] as number;
    sum += v;
    if (i >= period - 1) out[i] = sum / period;
  }
  return out;
}
