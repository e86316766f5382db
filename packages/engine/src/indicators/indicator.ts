import { EngineInputError } from '../errors';

/**
 * A streaming indicator: feed closed bars with `add`, update the still-open bar with `replace`.
 *
 * How to read: `isStable()` turns true after `getRequiredInputs()` inputs; before that `getResult()` is null and
 * `getResultOrThrow()` throws. Every indicator also has a batch form over a Float64Array that gives the same values
 * (NaN where the streaming form is not stable yet).
 * @see https://github.com/bennycode/trading-signals (the shape this copies)
 */
export interface Indicator<In, Out> {
  /** Adds the next closed input */
  add(input: In): void;
  /** Replaces the most recent input (the open candle changed); throws if nothing was added */
  replace(input: In): void;
  /** Inputs needed before the first result */
  getRequiredInputs(): number;
  isStable(): boolean;
  getResult(): Out | null;
  getResultOrThrow(): Out;
}

/** High, low, close and volume of one bar: the input of range and volume indicators */
export interface BarInput {
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** Fails fast on a non-finite input, naming the indicator */
export function checkInput(name: string, value: number): void {
  if (!Number.isFinite(value))
    throw new EngineInputError(`${name}: input must be a finite number, got ${value}`);
}

export function checkPeriod(name: string, period: number): void {
  if (!Number.isInteger(period) || period < 1) {
    throw new EngineInputError(`${name}: period must be a positive integer, got ${period}`);
  }
}

export function notStable(name: string, required: number): EngineInputError {
  return new EngineInputError(`${name}: not stable yet, needs ${required} inputs`);
}

export function nothingToReplace(name: string): EngineInputError {
  return new EngineInputError(`${name}: replace() called before any add()`);
}

/**
 * The part every single-value indicator with a `period` warm-up shares: stable after `period` inputs, `value` NaN
 * until then. Subclasses keep their own `add`/`replace` arithmetic and count the inputs in `count`.
 */
export abstract class PeriodIndicator<In> implements Indicator<In, number> {
  /** Current value, NaN until stable (read this in hot loops: no allocation, no null check) */
  value = Number.NaN;
  protected count = 0;

  constructor(
    /** The name errors carry, e.g. `EMA` */
    protected readonly name: string,
    readonly period: number,
  ) {
    checkPeriod(name, period);
  }

  abstract add(input: In): void;
  abstract replace(input: In): void;

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
    if (!this.isStable()) throw notStable(this.name, this.period);
    return this.value;
  }
}
