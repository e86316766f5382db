/**
 * The physical reference every engine benchmark is measured against: an EMA(fast)/EMA(slow) crossover over a bare
 * Float64Array, always in the market, PnL in price units, and nothing else (no fees, orders or accounting).
 */
export function referenceEmaCrossover(close: Float64Array, n: number, fast: number, slow: number): number {
  const kf = 2 / (fast + 1);
  const ks = 2 / (slow + 1);
  let ef = close[0] as number;
  let es = ef;
  let prev = 0;
  let pos = 0;
  let entry = 0;
  let pnl = 0;
  for (let i = 0; i < n; i++) {
    const c = close[i] as number;
    ef += (c - ef) * kf;
    es += (c - es) * ks;
    const diff = ef - es;
    if (prev <= 0 && diff > 0) {
      if (pos < 0) pnl += entry - c;
      pos = 1;
      entry = c;
    } else if (prev >= 0 && diff < 0) {
      if (pos > 0) pnl += c - entry;
      pos = -1;
      entry = c;
    }
    prev = diff;
  }
  return pnl;
}
