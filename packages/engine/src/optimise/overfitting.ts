/**
 * Overfitting statistics of a parameter search: the one implementation the optimiser and the AI agent's promotion
 * gates use. Formulas (ai-agent reference, section B4):
 *
 * - PSR(SR*) = Φ[(ŜR − SR*)·√(T − 1) / √(1 − γ₃·ŜR + (γ₄ − 1)/4·ŜR²)]  (per-period Sharpe ŜR, T returns,
 *   γ₃ skewness, γ₄ kurtosis, not excess). Bailey & López de Prado, "The Sharpe Ratio Efficient Frontier" (2012).
 * - SR₀ = √V·[(1 − γ)·Φ⁻¹(1 − 1/N) + γ·Φ⁻¹(1 − 1/(N·e))], DSR = PSR(SR₀): N trials whose per-period Sharpe
 *   ratios have variance V, γ the Euler–Mascheroni constant. Bailey & López de Prado, "The Deflated Sharpe Ratio"
 *   (SSRN 2460551).
 * - PBO by CSCV: the T×N matrix of per-period returns is cut into S blocks; for every choice of S/2 blocks as the
 *   in-sample set (the rest out of sample), the in-sample winner's out-of-sample rank ω̄ ∈ (0, 1) gives
 *   λ = ln(ω̄ / (1 − ω̄)); PBO = P(λ ≤ 0). Bailey, Borwein, López de Prado & Zhu, "The Probability of Backtest
 *   Overfitting" (SSRN 2326253).
 * - Random-entry baseline: the same number of trades with the same mean holding time, entered at random bars on a
 *   random side; p = (1 + #random Sharpe ≥ observed) / (1 + samples) (Jesse's significance test).
 *
 * Every Sharpe ratio here is per period (not annualised): the units PSR, DSR and V[SR] are defined in. Pure and
 * seeded like the rest of the core.
 */
import { EngineInputError } from '../errors';
import { createRandom } from '../random/prng';

const EULER_GAMMA = 0.5772156649015329;

/** Standard normal CDF Φ (relative error about 1e-15 down to Φ(−6)) */
export function normalCdf(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  if (x === Number.POSITIVE_INFINITY) return 1;
  if (x === Number.NEGATIVE_INFINITY) return 0;
  return 0.5 * erfc(-x / Math.SQRT2);
}

function erfc(x: number): number {
  // Chebyshev expansion in t = 2/(2 + |x|) (Numerical Recipes, 3rd ed., Erf::erfccheb)
  const z = Math.abs(x);
  const t = 2 / (2 + z);
  const ty = 4 * t - 2;
  let d = 0;
  let dd = 0;
  for (let j = ERFC_COEFFS.length - 1; j > 0; j--) {
    const tmp = d;
    d = ty * d - dd + (ERFC_COEFFS[j] as number);
    dd = tmp;
  }
  const r = t * Math.exp(-z * z + 0.5 * ((ERFC_COEFFS[0] as number) + ty * d) - dd);
  return x >= 0 ? r : 2 - r;
}

// Numerical Recipes 3rd ed., Erf::erfccheb (28 coefficients, accurate to double precision)
const ERFC_COEFFS = [
  -1.3026537197817094, 6.419697923564902e-1, 1.9476473204185836e-2, -9.561514786808631e-3,
  -9.46595344482036e-4, 3.66839497852761e-4, 4.2523324806907e-5, -2.0278578112534e-5, -1.624290004647e-6,
  1.30365583558e-6, 1.5626441722e-8, -8.5238095915e-8, 6.529054439e-9, 5.059343495e-9, -9.91364156e-10,
  -2.27365122e-10, 9.6467911e-11, 2.394038e-12, -6.886027e-12, 8.94487e-13, 3.13092e-13, -1.12708e-13,
  3.81e-16, 7.106e-15, -1.523e-15, -9.4e-17, 1.21e-16, -2.8e-17,
];

/** Φ⁻¹: Acklam's rational approximation, polished with one Halley step on Φ (about 1e-15 relative) */
export function normalQuantile(p: number): number {
  if (!(p >= 0 && p <= 1)) return Number.NaN;
  if (p === 0) return Number.NEGATIVE_INFINITY;
  if (p === 1) return Number.POSITIVE_INFINITY;
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
    2.506628277459239,
  ];
  const b = [
    -54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572,
  ];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const lo = 0.02425;
  let x: number;
  if (p < lo) {
    const q = Math.sqrt(-2 * Math.log(p));
    x = poly(c, q) / (poly(d, q) * q + 1);
  } else if (p <= 1 - lo) {
    const q = p - 0.5;
    const r = q * q;
    x = (poly(a, r) * q) / (poly(b, r) * r + 1);
  } else {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    x = -poly(c, q) / (poly(d, q) * q + 1);
  }
  const e = normalCdf(x) - p;
  const u = e * Math.sqrt(2 * Math.PI) * Math.exp((x * x) / 2);
  return x - u / (1 + (x * u) / 2);
}

/** Horner over coefficients highest power first */
function poly(coeffs: readonly number[], x: number): number {
  let acc = 0;
  for (const k of coeffs) acc = acc * x + k;
  return acc;
}

/** The moments of a return series PSR needs */
export interface ReturnMoments {
  /** Number of returns T */
  count: number;
  mean: number;
  /** Sample standard deviation (n − 1) */
  sd: number;
  /** γ₃ */
  skewness: number;
  /** γ₄, not excess (3 for a normal distribution) */
  kurtosis: number;
  /** Per-period Sharpe ratio mean / sd (0 when sd is 0), risk-free rate 0 */
  sharpe: number;
}

export function returnMoments(returns: ArrayLike<number>): ReturnMoments {
  const n = returns.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += returns[i] as number;
  const mean = n > 0 ? sum / n : 0;
  let m2 = 0;
  let m3 = 0;
  let m4 = 0;
  for (let i = 0; i < n; i++) {
    const dev = (returns[i] as number) - mean;
    const sq = dev * dev;
    m2 += sq;
    m3 += sq * dev;
    m4 += sq * sq;
  }
  const sd = n > 1 ? Math.sqrt(m2 / (n - 1)) : 0;
  // Population moments for skewness and kurtosis, as in the paper
  const pop2 = n > 0 ? m2 / n : 0;
  const skewness = pop2 > 0 ? m3 / n / pop2 ** 1.5 : 0;
  const kurtosis = pop2 > 0 ? m4 / n / (pop2 * pop2) : 3;
  return { count: n, mean, sd, skewness, kurtosis, sharpe: sd > 0 ? mean / sd : 0 };
}

/** Probability that the true per-period Sharpe ratio exceeds `benchmark`, given the observed moments */
export function probabilisticSharpe(m: ReturnMoments, benchmark = 0): number {
  if (m.count < 2) return Number.NaN;
  const sr = m.sharpe;
  const denominator = 1 - m.skewness * sr + ((m.kurtosis - 1) / 4) * sr * sr;
  // A heavy negative skew with a large Sharpe can make the variance estimate non-positive: no evidence either way
  if (!(denominator > 0)) return Number.NaN;
  return normalCdf(((sr - benchmark) * Math.sqrt(m.count - 1)) / Math.sqrt(denominator));
}

/** Expected maximum per-period Sharpe ratio of `trials` unskilled trials whose Sharpe ratios have this variance */
export function expectedMaxSharpe(trials: number, variance: number): number {
  if (!(Number.isInteger(trials) && trials >= 1))
    throw new EngineInputError(`trials must be a whole number of at least 1, got ${trials}`);
  if (trials === 1 || !(variance > 0)) return 0;
  return (
    Math.sqrt(variance) *
    ((1 - EULER_GAMMA) * normalQuantile(1 - 1 / trials) +
      EULER_GAMMA * normalQuantile(1 - 1 / (trials * Math.E)))
  );
}

export interface DeflatedSharpe {
  /** N: trials the selection was made from */
  trials: number;
  /** V[SR]: variance of the trials' per-period Sharpe ratios */
  sharpeVariance: number;
  /** SR₀: the Sharpe ratio the best of N unskilled trials would show */
  expectedMaxSharpe: number;
  /** PSR against 0 */
  psr: number;
  /** PSR against SR₀: probability the selected strategy's Sharpe is real after N trials */
  dsr: number;
}

/** DSR of the selected strategy's returns, deflated by every trial's per-period Sharpe ratio */
export function deflatedSharpe(selected: ReturnMoments, trialSharpes: ArrayLike<number>): DeflatedSharpe {
  const n = trialSharpes.length;
  if (n === 0) throw new EngineInputError('deflated Sharpe: no trials');
  let sum = 0;
  for (let i = 0; i < n; i++) sum += trialSharpes[i] as number;
  const mean = sum / n;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += ((trialSharpes[i] as number) - mean) ** 2;
  const variance = n > 1 ? ss / (n - 1) : 0;
  const sr0 = expectedMaxSharpe(n, variance);
  return {
    trials: n,
    sharpeVariance: variance,
    expectedMaxSharpe: sr0,
    psr: probabilisticSharpe(selected, 0),
    dsr: probabilisticSharpe(selected, sr0),
  };
}

export interface PboOptions {
  /** S, even: the returns are cut into this many blocks (default: the largest even S ≤ 16 within the budget) */
  partitions?: number;
  /** Most block sums one CSCV may add up (C(S, S/2)·S·N bounds its time); default 2·10⁸, ~0.3 s */
  budget?: number;
}

export interface PboReport {
  /** Probability of backtest overfitting: share of splits whose in-sample winner ranks in the bottom half OOS */
  pbo: number;
  /** S */
  partitions: number;
  /** C(S, S/2) */
  splits: number;
  /** Strategies compared */
  strategies: number;
  /** Median λ of the splits (negative: the in-sample winner is usually below the OOS median) */
  medianLogit: number;
  /** Share of splits whose in-sample winner lost money (Sharpe < 0) out of sample */
  probabilityOfOosLoss: number;
}

/** Binomial coefficient as a double (exact for the sizes used here) */
function choose(n: number, k: number): number {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return Math.round(r);
}

function defaultPartitions(t: number, n: number, budget: number): number {
  for (let s = 16; s >= 4; s -= 2) {
    if (t >= 2 * s && choose(s, s / 2) * s * n <= budget) return s;
  }
  return 4;
}

/**
 * PBO by combinatorially symmetric cross-validation. `returns[j]` is strategy j's per-period returns; all of the
 * same length T (≥ 2·S, so each block has at least two returns). Performance is the per-period Sharpe ratio.
 */
export function probabilityOfOverfitting(
  returns: readonly ArrayLike<number>[],
  options: PboOptions = {},
): PboReport {
  const n = returns.length;
  if (n < 2) throw new EngineInputError('PBO: at least two strategies are needed');
  const t = (returns[0] as ArrayLike<number>).length;
  for (const r of returns) {
    if (r.length !== t) throw new EngineInputError('PBO: every strategy needs the same number of returns');
  }
  const s = options.partitions ?? defaultPartitions(t, n, options.budget ?? 2e8);
  if (!(Number.isInteger(s) && s >= 2 && s % 2 === 0))
    throw new EngineInputError(`PBO: partitions must be an even whole number, got ${s}`);
  if (t < 2 * s) throw new EngineInputError(`PBO: ${t} returns are too few for ${s} blocks of at least two`);

  // Per block and strategy: count, sum and sum of squares, so a split's Sharpe ratios are sums over blocks
  const sums = new Float64Array(s * n);
  const squares = new Float64Array(s * n);
  const counts = new Float64Array(s);
  for (let b = 0; b < s; b++) {
    const from = Math.floor((b * t) / s);
    const to = Math.floor(((b + 1) * t) / s);
    counts[b] = to - from;
    for (let j = 0; j < n; j++) {
      const r = returns[j] as ArrayLike<number>;
      let sum = 0;
      let sq = 0;
      for (let i = from; i < to; i++) {
        const x = r[i] as number;
        sum += x;
        sq += x * x;
      }
      sums[b * n + j] = sum;
      squares[b * n + j] = sq;
    }
  }

  const half = s / 2;
  const inSample = new Array<number>(half);
  for (let i = 0; i < half; i++) inSample[i] = i;
  const isSum = new Float64Array(n);
  const isSq = new Float64Array(n);
  const oosSum = new Float64Array(n);
  const oosSq = new Float64Array(n);
  const logits: number[] = [];
  let overfit = 0;
  let oosLoss = 0;
  const member = new Uint8Array(s);
  for (;;) {
    member.fill(0);
    for (const b of inSample) member[b] = 1;
    isSum.fill(0);
    isSq.fill(0);
    oosSum.fill(0);
    oosSq.fill(0);
    let isCount = 0;
    let oosCount = 0;
    for (let b = 0; b < s; b++) {
      const sumTo = member[b] ? isSum : oosSum;
      const sqTo = member[b] ? isSq : oosSq;
      if (member[b]) isCount += counts[b] as number;
      else oosCount += counts[b] as number;
      const base = b * n;
      for (let j = 0; j < n; j++) {
        sumTo[j] = (sumTo[j] as number) + (sums[base + j] as number);
        sqTo[j] = (sqTo[j] as number) + (squares[base + j] as number);
      }
    }
    let best = 0;
    let bestIs = Number.NEGATIVE_INFINITY;
    for (let j = 0; j < n; j++) {
      const v = sharpeOf(isSum[j] as number, isSq[j] as number, isCount);
      if (v > bestIs) {
        bestIs = v;
        best = j;
      }
    }
    const bestOos = sharpeOf(oosSum[best] as number, oosSq[best] as number, oosCount);
    let below = 0;
    let equal = 0;
    for (let j = 0; j < n; j++) {
      const v = sharpeOf(oosSum[j] as number, oosSq[j] as number, oosCount);
      if (v < bestOos) below++;
      else if (v === bestOos) equal++;
    }
    // Rank 1..N with ties averaged (the winner itself counts in `equal`), ω̄ = rank / (N + 1)
    const rank = below + (equal + 1) / 2;
    const omega = rank / (n + 1);
    const logit = Math.log(omega / (1 - omega));
    logits.push(logit);
    if (logit <= 0) overfit++;
    if (bestOos < 0) oosLoss++;
    if (!nextCombination(inSample, s)) break;
  }
  logits.sort((x, y) => x - y);
  const mid = logits.length >> 1;
  const medianLogit =
    logits.length % 2 === 1
      ? (logits[mid] as number)
      : ((logits[mid - 1] as number) + (logits[mid] as number)) / 2;
  return {
    pbo: overfit / logits.length,
    partitions: s,
    splits: logits.length,
    strategies: n,
    medianLogit,
    probabilityOfOosLoss: oosLoss / logits.length,
  };
}

function sharpeOf(sum: number, sq: number, count: number): number {
  if (count < 2) return 0;
  const mean = sum / count;
  const variance = (sq - count * mean * mean) / (count - 1);
  return variance > 1e-30 ? mean / Math.sqrt(variance) : 0;
}

/** Next k-subset of 0..n-1 in lexicographic order, in place; false after the last */
function nextCombination(c: number[], n: number): boolean {
  const k = c.length;
  let i = k - 1;
  while (i >= 0 && (c[i] as number) === n - k + i) i--;
  if (i < 0) return false;
  c[i] = (c[i] as number) + 1;
  for (let j = i + 1; j < k; j++) c[j] = (c[j - 1] as number) + 1;
  return true;
}

export interface RandomEntryOptions {
  /** Closes of the bars the strategy ran on */
  close: ArrayLike<number>;
  /** Bars per return period: the same sampling as the strategy's returns */
  periodBars: number;
  /** Round trips to place (the observed strategy's trade count; at least 1) */
  trades: number;
  /** Share of bars in a position (the observed strategy's exposure, 0..1) */
  exposure: number;
  /** Cost of one round trip as a fraction of the position (taker fee twice plus slippage) */
  roundTripCost?: number;
  /** The per-period Sharpe ratio to compare against */
  observedSharpe: number;
  samples?: number;
  seed?: number;
}

export interface RandomEntryReport {
  samples: number;
  /** Mean per-period Sharpe ratio of the random strategies */
  meanSharpe: number;
  /** 95th percentile of their per-period Sharpe ratios */
  p95Sharpe: number;
  /** (1 + random ≥ observed) / (1 + samples): under 0.05, the observed edge is unlikely to be luck */
  pValue: number;
}

/**
 * Random-entry baseline: `samples` strategies that hold a unit position (long or short at random) for the same
 * number of trades and the same total time in the market as the observed one, entering at random bars. Their
 * per-period Sharpe ratios are the distribution a strategy without an edge would draw from on these bars.
 */
export function randomEntryBaseline(options: RandomEntryOptions): RandomEntryReport {
  const { close, periodBars } = options;
  const n = close.length;
  const samples = options.samples ?? 200;
  if (!(Number.isInteger(periodBars) && periodBars >= 1))
    throw new EngineInputError(
      `random entry: periodBars must be a whole number of at least 1, got ${periodBars}`,
    );
  const periods = Math.floor(n / periodBars);
  if (periods < 2) throw new EngineInputError('random entry: fewer than two return periods');
  const trades = Math.max(1, Math.round(options.trades));
  const held = Math.max(trades, Math.round(Math.min(1, Math.max(0, options.exposure)) * (n - 1)));
  const hold = Math.max(1, Math.floor(held / trades));
  const cost = options.roundTripCost ?? 0;
  const random = createRandom(options.seed ?? 1);
  const position = new Int8Array(n);
  const entryCost = new Float64Array(n);
  const periodReturns = new Float64Array(periods);
  const sharpes = new Float64Array(samples);
  for (let k = 0; k < samples; k++) {
    position.fill(0);
    entryCost.fill(0);
    // Trades at random non-overlapping starts: each takes the next free start at or after a random bar
    const span = n - 1;
    for (let tr = 0; tr < trades; tr++) {
      let start = Math.floor(random.next() * Math.max(1, span - hold));
      while (start < span && position[start] !== 0) start++;
      if (start >= span) continue;
      const side = random.next() < 0.5 ? -1 : 1;
      const end = Math.min(span, start + hold);
      for (let i = start; i < end; i++) {
        if (position[i] !== 0) break;
        position[i] = side;
      }
      entryCost[start] = cost;
    }
    // Position held from bar i's close to bar i+1's close; equity compounds per bar, sampled once a period
    let equity = 1;
    let prev = 1;
    for (let p = 0; p < periods; p++) {
      const end = (p + 1) * periodBars;
      for (let i = p * periodBars; i < end; i++) {
        if (i === 0) continue;
        const side = position[i - 1] as number;
        if (side !== 0) equity *= 1 + side * ((close[i] as number) / (close[i - 1] as number) - 1);
        equity *= 1 - (entryCost[i] as number);
      }
      periodReturns[p] = prev > 0 ? equity / prev - 1 : 0;
      prev = equity;
    }
    sharpes[k] = returnMoments(periodReturns).sharpe;
  }
  let atLeast = 0;
  let sum = 0;
  for (const v of sharpes) {
    sum += v;
    if (v >= options.observedSharpe) atLeast++;
  }
  const sorted = Array.from(sharpes).sort((a, b) => a - b);
  return {
    samples,
    meanSharpe: samples > 0 ? sum / samples : 0,
    p95Sharpe: sorted[Math.min(sorted.length - 1, Math.floor(0.95 * sorted.length))] ?? 0,
    pValue: (1 + atLeast) / (1 + samples),
  };
}

/** Per-period returns of an equity curve sampled every `periodBars` bars (the first against the initial balance) */
export function periodReturns(
  equity: ArrayLike<number>,
  length: number,
  periodBars: number,
  initialBalance: number,
): Float64Array {
  const periods = Math.floor(length / periodBars);
  const out = new Float64Array(periods);
  let prev = initialBalance;
  for (let p = 0; p < periods; p++) {
    const e = equity[(p + 1) * periodBars - 1] as number;
    out[p] = prev > 0 ? e / prev - 1 : 0;
    prev = e;
  }
  return out;
}

/** The return period most statistics are computed on: a day, or fewer bars per period so there are ≥ 64 periods */
export function statsPeriodBars(bars: number, intervalMs: number): number {
  const perDay = Math.max(1, Math.round(86_400_000 / intervalMs));
  return Math.max(1, Math.min(perDay, Math.floor(bars / 64)));
}
