/**
 * Seeded pseudo-random numbers (sfc32): the engine never calls `Math.random`, so a run is reproducible from its seed.
 * @see https://pracrand.sourceforge.net/ (sfc32 passes PractRand to 2^42 bytes)
 */
export interface Random {
  /** Uniform in [0, 1) */
  next(): number;
  /** Standard normal (Box–Muller) */
  normal(): number;
}

/** Creates a deterministic generator from a 32-bit integer seed */
export function createRandom(seed: number): Random {
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  let a = 0x9e3779b9 ^ seed;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed | 0;
  const next = (): number => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  // Warm up so nearby seeds diverge
  for (let i = 0; i < 15; i++) next();
  return {
    next,
    normal() {
      const u = 1 - next();
      const v = next();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
  };
}
