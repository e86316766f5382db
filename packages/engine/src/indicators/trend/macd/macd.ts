import { EngineInputError } from '../../../errors';
import { Ema, emaBatch } from '../../average/ema/ema';
import { checkInput, type Indicator, nothingToReplace, notStable } from '../../indicator';

/** MACD line, its signal line and their difference */
export interface MacdResult {
  macd: number;
  signal: number;
  histogram: number;
}

/** The batch form: one column per output */
export interface MacdColumns {
  macd: Float64Array;
  signal: Float64Array;
  histogram: Float64Array;
}

/**
 * Moving average convergence divergence: EMA(fast) − EMA(slow), with an EMA(signal) of that line.
 * How to read: histogram crossing above zero is bullish momentum. Stable after `slow + signal − 1` inputs.
 * @see https://www.investopedia.com/terms/m/macd.asp
 */
export class Macd implements Indicator<number, MacdResult> {
  private readonly fastEma: Ema;
  private readonly slowEma: Ema;
  private readonly signalEma: Ema;
  private count = 0;

  constructor(
    readonly fast = 12,
    readonly slow = 26,
    readonly signal = 9,
  ) {
    if (!(fast < slow))
      throw new EngineInputError(`MACD: fast period (${fast}) must be below slow (${slow})`);
    this.fastEma = new Ema(fast);
    this.slowEma = new Ema(slow);
    this.signalEma = new Ema(signal);
  }

  add(input: number): void {
    checkInput('MACD', input);
    this.count++;
    this.fastEma.add(input);
    this.slowEma.add(input);
    if (this.slowEma.isStable()) this.signalEma.add(this.fastEma.value - this.slowEma.value);
  }

  replace(input: number): void {
    if (this.count === 0) throw nothingToReplace('MACD');
    checkInput('MACD', input);
    const hadSignalInput = this.slowEma.isStable();
    this.fastEma.replace(input);
    this.slowEma.replace(input);
    if (hadSignalInput) this.signalEma.replace(this.fastEma.value - this.slowEma.value);
  }

  getRequiredInputs(): number {
    return this.slow + this.signal - 1;
  }

  isStable(): boolean {
    return this.signalEma.isStable();
  }

  getResult(): MacdResult | null {
    if (!this.isStable()) return null;
    const macd = this.fastEma.value - this.slowEma.value;
    const signal = this.signalEma.value;
    return { macd, signal, histogram: macd - signal };
  }

  getResultOrThrow(): MacdResult {
    const result = this.getResult();
    if (result === null) throw notStable('MACD', this.getRequiredInputs());
    return result;
  }
}

/** Batch MACD; NaN before stable */
export function macdBatch(values: Float64Array, fast = 12, slow = 26, signal = 9): MacdColumns {
  if (!(fast < slow)) throw new EngineInputError(`MACD: fast period (${fast}) must be below slow (${slow})`);
  const f = emaBatch(values, fast);
  const s = emaBatch(values, slow);
  const n = values.length;
  const line = new Float64Array(Math.max(0, n - slow + 1));
  for (let i = slow - 1; i < n; i++) line[i - slow + 1] = (f[i] as number) - (s[i] as number);
  const sig = line.length > 0 ? emaBatch(line, signal) : line;
  const out: MacdColumns = {
    macd: new Float64Array(n).fill(Number.NaN),
    signal: new Float64Array(n).fill(Number.NaN),
    histogram: new Float64Array(n).fill(Number.NaN),
  };
  for (let j = 0; j < line.length; j++) {
    const sv = sig[j] as number;
    if (Number.isNaN(sv)) continue;
    const i = j + slow - 1;
    out.macd[i] = line[j] as number;
    out.signal[i] = sv;
    out.histogram[i] = (line[j] as number) - sv;
  }
  return out;
}
