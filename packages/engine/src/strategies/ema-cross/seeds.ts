/**
 * Both EMAs of a crossing strategy at bar `sp − 1`, the first bar where the slow one is defined, with exactly the
 * streaming arithmetic of `Ema` (an SMA seed, then (x − ema)·k + ema); the fast one is shorter, so stable first.
 * Shared by the crossing pass and the fused loop so their crossings are the same bars. Needs at least `sp` bars.
 */
export function emaCrossSeeds(close: Float64Array, fp: number, sp: number): { fast: number; slow: number } {
  const kf = 2 / (fp + 1);
  let fe = 0;
  let fs = 0;
  let ss = 0;
  for (let i = 0; i < sp; i++) {
    const v = close[i] as number;
    if (i < fp - 1) fs += v;
    else if (i === fp - 1) {
      fs += v;
      fe = fs / fp;
    } else fe = (v - fe) * kf + fe;
    ss += v;
  }
  return { fast: fe, slow: ss / sp };
}
