/*
 * Exact arithmetic on the exchange's decimal strings: a float check of "0.3 is a multiple of 0.1" fails, and a
 * filter the browser gets wrong either blocks a good order or lets the exchange refuse it
 */

import { stepDecimals } from '@kestrel/ui';

const DECIMAL = /^\d+(\.\d+)?$/;

/** True for an unsigned decimal string such as "0.010" */
export function isDecimal(value: string): boolean {
  return DECIMAL.test(value);
}

function decimalsOf(value: string): number {
  return value.split('.')[1]?.length ?? 0;
}

/** `value` × 10^decimals as an integer (`value` has at most `decimals` decimals) */
function scaled(value: string, decimals: number): bigint {
  const [whole = '0', fraction = ''] = value.split('.');
  return BigInt(whole + fraction.padEnd(decimals, '0'));
}

/** Compares two unsigned decimal strings: negative, zero or positive as a <, =, > b */
export function compareDecimal(a: string, b: string): number {
  const d = Math.max(decimalsOf(a), decimalsOf(b));
  const diff = scaled(a, d) - scaled(b, d);
  return diff === 0n ? 0 : diff < 0n ? -1 : 1;
}

/** True when `value` is a whole number of `step`s ("0.30" of "0.10": yes; "0.15" of "0.10": no) */
export function isMultipleOf(value: string, step: string): boolean {
  const d = Math.max(decimalsOf(value), decimalsOf(step));
  const s = scaled(step, d);
  return s === 0n || scaled(value, d) % s === 0n;
}

/** price × quantity, exactly, as a decimal string */
export function multiplyDecimal(a: string, b: string): string {
  const da = decimalsOf(a);
  const db = decimalsOf(b);
  const digits = (scaled(a, da) * scaled(b, db)).toString().padStart(da + db + 1, '0');
  const cut = digits.length - (da + db);
  return da + db === 0 ? digits : `${digits.slice(0, cut)}.${digits.slice(cut)}`;
}

/**
 * A size computed in floats (a share of a position, a value over a price) rounded down to whole lot steps, written
 * with the step's decimals. A hair is added before flooring, so 0.3 × 0.01 is 3 steps of 0.001, not 2.9999…
 */
export function floorToStep(size: number, stepSize: string): string {
  const step = Number(stepSize);
  const steps = Math.floor(size / step + 1e-9);
  return (steps * step).toFixed(stepDecimals(stepSize));
}
