/*
 * Exact arithmetic on the exchange's decimal strings, in integer units (bigint). Book prices are summed and
 * bucketed here rather than as floats: 0.1 + 0.2 style noise would put a level in the wrong bucket or show a
 * price the exchange never quotes. (The orders feature has its own copy: features never import each other.)
 */

const DECIMAL = /^\d+(\.\d+)?$/;

/** True for an unsigned decimal string such as "0.010" */
export function isDecimal(value: string): boolean {
  return DECIMAL.test(value);
}

/** Decimals as written, trailing zeros included: "1.200" → 3 (the exchange writes a symbol's lot decimals) */
export function fractionDigits(value: string): number {
  const dot = value.indexOf('.');
  return dot === -1 ? 0 : value.length - dot - 1;
}

/** `value` × 10^decimals as an integer; decimals beyond `decimals` are cut */
export function toUnits(value: string, decimals: number): bigint {
  const dot = value.indexOf('.');
  const whole = dot === -1 ? value : value.slice(0, dot);
  const fraction = dot === -1 ? '' : value.slice(dot + 1);
  return BigInt(whole + fraction.padEnd(decimals, '0').slice(0, decimals));
}

/** An unsigned integer of units back to a decimal string with exactly `decimals` decimals */
export function fromUnits(units: bigint, decimals: number): string {
  const digits = units.toString().padStart(decimals + 1, '0');
  return decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/** "5.00" → "5", "0.10" → "0.1": how a step reads in a picker */
export function trimZeros(value: string): string {
  return value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value;
}
