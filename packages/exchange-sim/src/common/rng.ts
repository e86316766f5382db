/**
 * Small deterministic random sources. The price feed must give the same path for the same seed on every machine,
 * so everything here is integer arithmetic on 32 bits (no Math.random, no platform-dependent state).
 */

/** Mixes integers into one well-spread 32-bit value (splitmix/murmur finaliser) */
export function hash32(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    // Split into two 32-bit halves so numbers above 2^32 (minute indexes, seeds) still mix fully
    const lo = part >>> 0;
    const hi = Math.floor(part / 4294967296) >>> 0;
    h = Math.imul(h ^ lo, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h ^ hi, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A seeded uniform generator on [0, 1) (mulberry32) */
export class Rng {
  #state: number;

  constructor(seed: number) {
    this.#state = hash32(seed) | 0;
  }

  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) | 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Standard normal draw (Box-Muller); the first uniform is kept away from 0 so the log stays finite */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}
