import { errors } from '../common/errors';
import { Decimal } from '../common/format';

const DECIMAL = /^-?\d+(\.\d+)?$/;
const INTEGER = /^-?\d+$/;

/** Request parameters merged from query and form body (the query wins, as on Binance) */
export class Params {
  readonly #values: Map<string, string>;

  constructor(values: Map<string, string>) {
    this.#values = values;
  }

  static parse(query: string, body: string): Params {
    const values = new Map<string, string>();
    for (const [k, v] of new URLSearchParams(body)) values.set(k, v);
    for (const [k, v] of new URLSearchParams(query)) values.set(k, v);
    return new Params(values);
  }

  has(name: string): boolean {
    const v = this.#values.get(name);
    return v !== undefined && v !== '';
  }

  get(name: string): string | undefined {
    const v = this.#values.get(name);
    return v === '' ? undefined : v;
  }

  required(name: string): string {
    const v = this.get(name);
    if (v === undefined) throw errors.mandatory(name);
    return v;
  }

  decimal(name: string): Decimal | undefined {
    const v = this.get(name);
    if (v === undefined) return undefined;
    if (!DECIMAL.test(v)) throw errors.illegalChars(name, '^([0-9]{1,20})(\\.[0-9]{1,20})?$');
    return new Decimal(v);
  }

  /** A mandatory decimal (-1102 when missing) */
  requiredDecimal(name: string): Decimal {
    const v = this.decimal(name);
    if (v === undefined) throw errors.mandatory(name);
    return v;
  }

  int(name: string): number | undefined {
    const v = this.get(name);
    if (v === undefined) return undefined;
    if (!INTEGER.test(v)) throw errors.illegalChars(name, '^[0-9]{1,20}$');
    return Number(v);
  }

  bigint(name: string): bigint | undefined {
    const v = this.get(name);
    if (v === undefined) return undefined;
    if (!INTEGER.test(v)) throw errors.illegalChars(name, '^[0-9]{1,20}$');
    return BigInt(v);
  }

  /** `limit` with its default, refused outside 1…max */
  limit(fallback: number, max: number): number {
    const n = this.int('limit') ?? fallback;
    if (n < 1 || n > max) throw errors.invalidParam(`Invalid limit: must be between 1 and ${max}.`);
    return n;
  }

  /** Binance booleans are the strings "true"/"false" (any case) */
  bool(name: string): boolean | undefined {
    const v = this.get(name);
    if (v === undefined) return undefined;
    const lower = v.toLowerCase();
    if (lower !== 'true' && lower !== 'false') throw errors.invalidParam(`Invalid value for '${name}': ${v}`);
    return lower === 'true';
  }

  /** A mandatory boolean (-1102 when missing) */
  requiredBool(name: string): boolean {
    const v = this.bool(name);
    if (v === undefined) throw errors.mandatory(name);
    return v;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], onBad: () => Error): T | undefined {
    const v = this.get(name);
    if (v === undefined) return undefined;
    if (!(allowed as readonly string[]).includes(v)) throw onBad();
    return v as T;
  }
}
