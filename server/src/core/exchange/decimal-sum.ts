import { Decimal } from 'decimal.js';

/** Own configuration: the exchange simulator sets the shared default one when it runs in the same process */
const Exact = Decimal.clone({ precision: 64 });
/** How Binance writes amounts: no exponent, no sign other than a leading minus */
const DECIMAL = /^-?\d+(\.\d+)?$/;

/** Exact sum of decimal strings (exchange amounts), written in plain notation without trailing zeros */
export function sumDecimals(values: readonly string[]): string {
  let sum = new Exact(0);
  for (const v of values) {
    if (!DECIMAL.test(v)) throw new Error(`not a decimal: ${v}`);
    sum = sum.plus(v);
  }
  // decimal.js writes negative zero as "-0"
  return sum.isZero() ? '0' : sum.toFixed();
}
