import { Decimal } from 'decimal.js';

// Money is exact: 40 significant digits is far beyond any balance × price the simulator multiplies
Decimal.set({ precision: 40, rounding: Decimal.ROUND_HALF_UP });

export { Decimal };

/** Decimal to a fixed number of places, as Binance writes amounts ("0.00100000") */
export function fixed(value: Decimal.Value, places: number): string {
  return new Decimal(value).toFixed(places);
}

/** Decimal to its shortest exact form ("0.385", "30") */
export function plain(value: Decimal.Value): string {
  return new Decimal(value).toFixed();
}

// A marker no Binance field can contain; JSON.stringify keeps it as is, unlike control characters it would escape
const BIGINT_MARK = '__exchange_sim_bigint__:';

/**
 * JSON with bigint values written as bare integers: Binance order ids exceed 2^53 and a real client must see the
 * same digits it would see from fapi.binance.com, not a rounded double or a quoted string
 */
export function toJson(value: unknown): string {
  // Most replies carry no bigint: the plain path avoids a replacer call per value (klines pages are large)
  try {
    return JSON.stringify(value);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
  }
  const text = JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'bigint' ? `${BIGINT_MARK}${v.toString()}` : v,
  );
  return text.replace(/"__exchange_sim_bigint__:(-?\d+)"/g, '$1');
}
