/**
 * Tick and step rounding at the boundaries where prices and quantities enter the engine.
 *
 * Prices and quantities are float64 values that are always an exact multiple of the symbol's tick or step after
 * rounding here. Dividing by the step, rounding to an integer count, then rebuilding the value through the step's
 * decimal count removes binary drift (0.1 + 0.2 style) so `roundToStep(0.30000000000000004, 0.1) === 0.3`.
 */

/** Number of decimals needed to write `step` exactly (0.001 → 3, 5 → 0, 1e-8 → 8) */
export function stepDecimals(step: number): number {
  if (!(step > 0) || !Number.isFinite(step))
    throw new RangeError(`step must be a positive number, got ${step}`);
  let decimals = 0;
  let scaled = step;
  while (decimals < 16 && Math.abs(Math.round(scaled) - scaled) > 1e-9 * Math.max(1, scaled)) {
    scaled *= 10;
    decimals++;
  }
  return decimals;
}

/** Rounding modes: nearest for prices, down for quantities (never trade more than asked) */
export type RoundMode = 'nearest' | 'down' | 'up';

/**
 * Rounds to multiples of one step with integer arithmetic: count × stepUnits / 10^decimals. Both factors are exact
 * integers and dividing by a power of ten yields the double nearest to the decimal, i.e. the same value as parsing
 * the decimal string, without building one (this runs on every fill).
 */
export class StepRounder {
  private readonly pow: number;
  private readonly units: number;

  constructor(readonly step: number) {
    const decimals = stepDecimals(step);
    this.pow = 10 ** decimals;
    this.units = Math.round(step * this.pow);
  }

  round(value: number, mode: RoundMode = 'nearest'): number {
    // Steps like 0.001 or 0.1 are one unit of a power of ten: dividing and multiplying by 1 are exact, so skipping
    // them gives the same doubles for one division less (this runs several times per fill)
    const units = this.units;
    const ratio = units === 1 ? value * this.pow : (value * this.pow) / units;
    // A tiny epsilon keeps 2.9999999999 (meaning 3 steps) from rounding down to 2 steps
    const count =
      mode === 'nearest'
        ? Math.round(ratio)
        : mode === 'down'
          ? Math.floor(ratio + 1e-9)
          : Math.ceil(ratio - 1e-9);
    return (units === 1 ? count : count * units) / this.pow;
  }
}

const rounders = new Map<number, StepRounder>();

/** Rounds `value` to a multiple of `step`, with the result equal to the exact decimal multiple */
export function roundToStep(value: number, step: number, mode: RoundMode = 'nearest'): number {
  let r = rounders.get(step);
  if (r === undefined) {
    r = new StepRounder(step);
    rounders.set(step, r);
  }
  return r.round(value, mode);
}

/** Rounds money to `decimals` places (reporting only; balances keep full float64 precision inside) */
export function roundMoney(value: number, decimals = 8): number {
  return Number(value.toFixed(decimals));
}
