import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TEST_DATA = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-data');

/** A Binance envelope from test-data/ */
export function fixture(name: string): unknown {
  return JSON.parse(readFileSync(join(TEST_DATA, name), 'utf8'));
}

/**
 * Fields Binance only sends for trailing-stop orders, which the simulator's order endpoint does not take, and the
 * optional `notionalCoef` of leverageBracket (documented as sometimes absent)
 */
const TRAILING_ONLY = new Set(['activatePrice', 'priceRate', 'AP', 'cr', 'notionalCoef']);

function kind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  return typeof v;
}

/**
 * Differences between a real envelope and the simulator's answer: every field of the envelope must be present with
 * the same JSON type (strings stay strings: Binance writes decimals as strings), recursively; arrays compare their
 * first elements. With `exact`, extra fields in the answer count too. Returns a list of paths; empty means equal.
 */
export function shapeDiff(expected: unknown, actual: unknown, exact = false, path = '$'): string[] {
  const ke = kind(expected);
  const ka = kind(actual);
  if (ke !== ka) return [`${path}: expected ${ke}, got ${ka}`];
  if (ke === 'array') {
    const e = (expected as unknown[])[0];
    const a = (actual as unknown[])[0];
    if (e === undefined || a === undefined) return [];
    return shapeDiff(e, a, exact, `${path}[0]`);
  }
  if (ke !== 'object') return [];
  const eo = expected as Record<string, unknown>;
  const ao = actual as Record<string, unknown>;
  const out: string[] = [];
  for (const key of Object.keys(eo)) {
    if (!(key in ao)) {
      if (!TRAILING_ONLY.has(key)) out.push(`${path}.${key}: missing`);
      continue;
    }
    // The `cr` of ORDER_TRADE_UPDATE (trailing callback) is a string; ACCOUNT_UPDATE's `cr` is checked as usual
    out.push(...shapeDiff(eo[key], ao[key], exact, `${path}.${key}`));
  }
  if (exact)
    for (const key of Object.keys(ao))
      if (!(key in eo)) out.push(`${path}.${key}: not in Binance's envelope`);
  return out;
}
