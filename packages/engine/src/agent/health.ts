import { parseAgentConfig } from './config';
import { AGENT_FEATURE_COUNT, AGENT_FEATURES, FEATURE_LOOKBACK, featureMatrix } from './features';
import { labelBars } from './labels';
import type { AgentConfig, AgentDecision, AgentModel, AgentSnapshot } from './types';

/** Recent bars whose features are compared with the training distribution */
const DRIFT_WINDOW = 500;
/** Bin edges of the population stability index, in training standard deviations */
const PSI_EDGES = [-2, -1, -0.5, 0, 0.5, 1, 2];
/** The usual bands of a population stability index: below `moderate` stable, from `large` on a large shift */
export const PSI_BANDS = { moderate: 0.1, large: 0.25 } as const;
const HIT_WINDOW = 20;
const DI_EDGES = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3];

export interface FeatureDrift {
  id: string;
  /** Recent mean minus training mean, in training standard deviations; recent sd / training sd */
  meanShift: number;
  stdRatio: number;
  /** Population stability index of the recent values against the model's reference rows (see driftStatus) */
  psi: number;
  status: 'ok' | 'watch' | 'drift' | 'unavailable';
}

export interface CalibrationBucket {
  /** p(up) in [from, to) */
  from: number;
  to: number;
  count: number;
  meanPredicted: number | null;
  /** Share of those bars whose label turned out up */
  observed: number | null;
}

export interface ModelHealth {
  modelId: string;
  /** Bars [from, to) of the snapshot the drift was measured on */
  driftFrom: number;
  driftTo: number;
  drift: FeatureDrift[];
  /** Features in drift / watch */
  drifting: number;
  calibration: CalibrationBucket[];
  /** Entries with a known outcome, and the share that moved their way over the horizon */
  entries: number;
  hitRate: number | null;
  /** Hit rate of the last HIT_WINDOW entries at each entry with a known outcome */
  rollingHitRate: { barTime: number; hitRate: number }[];
  dissimilarity: { edges: number[]; counts: number[] };
}

export interface ModelHealthInput {
  model: AgentModel;
  snapshot: AgentSnapshot;
  /** Decisions made with this model (others are ignored), any order */
  decisions: readonly AgentDecision[];
  /** The agent's config: the horizon and dead zone outcomes are judged by */
  config: AgentConfig;
}

/**
 * How the model is holding up: feature drift of the recent bars against its training distribution (mean shift and
 * PSI against its reference rows), calibration of p(up) against outcomes, rolling hit rate of its entries and the
 * histogram of the dissimilarity index its decisions saw.
 */
export function modelHealth(input: ModelHealthInput): ModelHealth {
  const { model, snapshot } = input;
  const config = parseAgentConfig(input.config);
  const n = snapshot.length;
  const driftTo = n;
  const driftFrom = Math.max(FEATURE_LOOKBACK, n - DRIFT_WINDOW);
  const drift: FeatureDrift[] = [];
  if (driftTo > driftFrom) {
    const m = featureMatrix(snapshot, driftFrom, driftTo);
    for (let j = 0; j < AGENT_FEATURE_COUNT; j++) drift.push(featureDrift(model, m.data, m.rows, j));
  } else {
    for (const f of AGENT_FEATURES)
      drift.push({ id: f.id, meanShift: 0, stdRatio: 1, psi: 0, status: 'unavailable' });
  }

  const labels = labelBars(snapshot.bars.close, config, n);
  const own = input.decisions
    .filter((d) => d.modelId === model.id)
    .slice()
    .sort((a, b) => a.barTime - b.barTime);
  const buckets: CalibrationBucket[] = [];
  for (let b = 0; b < 10; b++)
    buckets.push({ from: b / 10, to: (b + 1) / 10, count: 0, meanPredicted: 0, observed: 0 });
  const hits: boolean[] = [];
  const rollingHitRate: ModelHealth['rollingHitRate'] = [];
  const diCounts = new Array<number>(DI_EDGES.length + 1).fill(0);
  for (const d of own) {
    if (d.dissimilarity !== null) bump(diCounts, binOf(DI_EDGES, d.dissimilarity));
    const i = indexOf(snapshot.bars.openTime, n, d.barTime);
    if (i < 0 || (labels.t1[i] as number) < 0) continue;
    if (d.pUp !== null) {
      const bucket = buckets[Math.min(9, Math.max(0, Math.floor(d.pUp * 10)))] as CalibrationBucket;
      bucket.count++;
      bucket.meanPredicted = (bucket.meanPredicted as number) + d.pUp;
      bucket.observed = (bucket.observed as number) + (labels.label[i] === 1 ? 1 : 0);
    }
    if (d.action === 'enter_long' || d.action === 'enter_short') {
      const side = d.action === 'enter_long' ? 1 : -1;
      hits.push(side * (labels.forward[i] as number) > 0);
      const recent = hits.slice(-HIT_WINDOW);
      rollingHitRate.push({ barTime: d.barTime, hitRate: recent.filter(Boolean).length / recent.length });
    }
  }
  for (const b of buckets) {
    b.meanPredicted = b.count > 0 ? (b.meanPredicted as number) / b.count : null;
    b.observed = b.count > 0 ? (b.observed as number) / b.count : null;
  }
  return {
    modelId: model.id,
    driftFrom,
    driftTo,
    drift,
    drifting: drift.filter((f) => f.status === 'drift' || f.status === 'watch').length,
    calibration: buckets,
    entries: hits.length,
    hitRate: hits.length > 0 ? hits.filter(Boolean).length / hits.length : null,
    rollingHitRate,
    dissimilarity: { edges: DI_EDGES, counts: diCounts },
  };
}

function featureDrift(model: AgentModel, data: Float64Array, rows: number, j: number): FeatureDrift {
  const id = AGENT_FEATURES[j]?.id ?? String(j);
  const mean = model.mean[j] as number;
  const std = model.std[j] as number;
  let sum = 0;
  let sq = 0;
  let count = 0;
  const recent = new Array<number>(PSI_EDGES.length + 1).fill(0);
  for (let r = 0; r < rows; r++) {
    const v = data[r * AGENT_FEATURE_COUNT + j] as number;
    if (Number.isNaN(v)) continue;
    const z = (v - mean) / std;
    sum += z;
    sq += z * z;
    count++;
    bump(recent, binOf(PSI_EDGES, z));
  }
  if (count === 0) return { id, meanShift: 0, stdRatio: 1, psi: 0, status: 'unavailable' };
  const expected = new Array<number>(PSI_EDGES.length + 1).fill(0);
  for (const ref of model.referenceRows) bump(expected, binOf(PSI_EDGES, ref[j] as number));
  let psi = 0;
  const refCount = Math.max(1, model.referenceRows.length);
  for (let b = 0; b < expected.length; b++) {
    const a = Math.max(1e-4, (recent[b] as number) / count);
    const e = Math.max(1e-4, (expected[b] as number) / refCount);
    psi += (a - e) * Math.log(a / e);
  }
  const meanShift = sum / count;
  const variance = Math.max(0, sq / count - meanShift * meanShift);
  return {
    id,
    meanShift,
    stdRatio: Math.sqrt(variance),
    psi,
    status: driftStatus(psi),
  };
}

/**
 * The usual PSI bands: below 0.1 stable, 0.1 to 0.25 a moderate shift (watch), 0.25 and above a large shift (drift).
 * The mean's move and the spread's ratio are reported beside it, not mixed in: a reader checks them against the band.
 */
function driftStatus(psi: number): FeatureDrift['status'] {
  if (psi >= PSI_BANDS.large) return 'drift';
  if (psi >= PSI_BANDS.moderate) return 'watch';
  return 'ok';
}

function bump(counts: number[], at: number): void {
  counts[at] = (counts[at] ?? 0) + 1;
}

function binOf(edges: readonly number[], x: number): number {
  let b = 0;
  while (b < edges.length && x >= (edges[b] as number)) b++;
  return b;
}

/** Index of the bar opening at `time` (binary search), −1 if none */
function indexOf(openTime: Float64Array, n: number, time: number): number {
  let lo = 0;
  let hi = n - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const t = openTime[mid] as number;
    if (t === time) return mid;
    if (t < time) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
