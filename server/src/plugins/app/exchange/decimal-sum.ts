/** Exact sum of decimal strings (exchange amounts have at most 8 decimals; kept exact with bigint, 8 places) */
const SCALE = 8;

function toUnits(d: string): bigint {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(d.trim());
  if (!m) throw new Error(`not a decimal: ${d}`);
  const frac = (m[3] ?? '').slice(0, SCALE).padEnd(SCALE, '0');
  const units = BigInt(m[2] ?? '0') * 10n ** BigInt(SCALE) + BigInt(frac);
  return m[1] ? -units : units;
}

function fromUnits(u: bigint): string {
  const neg = u < 0n;
  const abs = neg ? -u : u;
  const base = 10n ** BigInt(SCALE);
  const frac = (abs % base).toString().padStart(SCALE, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${abs / base}${frac ? `.${frac}` : ''}`;
}

export function sumDecimals(values: readonly string[]): string {
  return fromUnits(values.reduce((acc, v) => acc + toUnits(v), 0n));
}
