import { EngineInputError } from '../errors';
import {
  type DeflatedSharpe,
  deflatedSharpe,
  type PboReport,
  periodReturns,
  probabilityOfOverfitting,
  type RandomEntryReport,
  randomEntryBaseline,
  returnMoments,
  statsPeriodBars,
} from '../optimise/overfitting';
import { OVERFITTING_GATES } from '../optimise/overfitting-report';
import { createRandom } from '../random/prng';
import { parseAgentConfig, retrainBars } from './config';
import { agentRule, expectedEdge, RULE_EXIT, RULE_HOLD, RULE_LONG } from './decide';
import {
  AGENT_FEATURE_COUNT,
  ATR_FEATURE,
  FEATURE_LOOKBACK,
  type FeatureMatrix,
  featureMatrix,
} from './features';
import { type AgentLabels, labelBars } from './labels';
import { applyModel, fitAgentModel, MIN_TRAINING_ROWS, predictedClass } from './model';
import type { AgentConfig, AgentModel, AgentSnapshot } from './types';

/** The agent's own promotion gate beside OVERFITTING_GATES: out-of-sample Sharpe keeps at least half the in-sample */
export const AGENT_EVIDENCE_GATES = { ...OVERFITTING_GATES, retention: 0.5 } as const;

const HOUR_MS = 3_600_000;
const FUNDING_HOURS = 8;
/** Walk-forward folds at most: past this the test window grows beyond one retrain period */
const MAX_FOLDS = 120;
/** Points of each equity curve in the report */
const CURVE_POINTS = 400;

export interface AgentEvidenceInput {
  snapshot: AgentSnapshot;
  config: AgentConfig;
  /**
   * Per-period out-of-sample Sharpe ratios of every configuration the trial registry held before this one (their
   * count and spread deflate the Sharpe ratio: N = these + the variants this evaluation tries)
   */
  trials?: readonly number[];
  /** Purged cross-validation folds (default 5; 0 skips it: on a year of 1m bars it is most of the CPU time) and
   * random-entry samples (default 200) */
  cvFolds?: number;
  samples?: number;
}

export interface AgentEvidenceFold {
  fold: number;
  /** Open times of the first and last training and test bars */
  trainFrom: number;
  trainTo: number;
  testFrom: number;
  testTo: number;
  trainRows: number;
  testBars: number;
  modelId: string;
  trades: number;
  /** Compounded return of the fold's test bars, and of the same rule run over its own training rows (in-sample) */
  oosReturn: number;
  inSampleReturn: number;
  /** Classification accuracy on the test rows with a label, and in-sample */
  oosAccuracy: number | null;
  inSampleAccuracy: number;
  /** Share of the fold's trades that made money */
  hitRate: number | null;
}

export interface AgentEvidenceCurves {
  /** Open times of the sampled bars, and equity (start = 1) of the agent, buy-and-hold and one random-entry path */
  time: number[];
  agent: number[];
  buyAndHold: number[];
  randomEntry: number[];
}

export interface AgentCvFold {
  fold: number;
  /** Bars [from, to) of the test block */
  from: number;
  to: number;
  trainRows: number;
  /** Training rows dropped because their label [t, t1] overlaps the test block, and embargoed after it */
  purged: number;
  embargoed: number;
  accuracy: number;
  logLoss: number;
  /** Accuracy of always predicting the training rows' commonest class: what accuracy must beat */
  baselineAccuracy: number;
}

export interface AgentEvidenceGate {
  gate: 'dsr' | 'pbo' | 'random_entry' | 'retention';
  passed: boolean;
  value: number | null;
  limit: number;
  /** The figures the value was computed from, in words */
  inputs: string;
}

export interface AgentEvidenceVariant {
  entryThreshold: number;
  minPredictionZ: number;
  sharpe: number;
  selected: boolean;
}

export interface AgentEvidence {
  config: AgentConfig;
  bars: number;
  intervalMs: number;
  /** Bars per retrain period of the config, and per test window (larger when the folds were capped at 120) */
  retrainBars: number;
  testBars: number;
  folds: AgentEvidenceFold[];
  curves: AgentEvidenceCurves;
  /** Out-of-sample totals of the configuration (stitched test windows) */
  oos: {
    totalReturn: number;
    buyAndHoldReturn: number;
    trades: number;
    /** Share of test bars in a position */
    exposure: number;
    hitRate: number | null;
    /** Costs paid, as fractions of the starting equity (summed, not compounded) */
    costs: { fees: number; slippage: number; funding: number };
  };
  statistics: {
    periodBars: number;
    periods: number;
    sharpe: number;
    skewness: number;
    kurtosis: number;
    /** In-sample per-period Sharpe (the rule on each fold's own training rows): never the headline */
    inSampleSharpe: number;
    retention: number | null;
    deflated: DeflatedSharpe;
    pbo: PboReport | null;
    randomEntry: RandomEntryReport;
  };
  /** Decision-threshold variants tried on the same models (they count as trials) */
  variants: AgentEvidenceVariant[];
  cv: { folds: AgentCvFold[]; embargoBars: number; meanAccuracy: number; meanBaselineAccuracy: number };
  gates: AgentEvidenceGate[];
  passed: boolean;
}

/** One fold's model outputs on its test bars (and training rows, for the in-sample run) */
interface FoldOutputs {
  from: number;
  to: number;
  /** Per bar of [from, to): p(up), p(down), z, DI, edges, age (hours) */
  pUp: Float64Array;
  pDown: Float64Array;
  z: Float64Array;
  di: Float64Array;
  edgeLong: Float64Array;
  edgeShort: Float64Array;
  age: Float64Array;
}

/**
 * The agent's evidence on a snapshot: walk-forward (train on the last `trainBars` rows whose labels ended before
 * the test window, test the next retrain period, slide), the stitched out-of-sample equity against buy-and-hold
 * and a random-entry baseline, a per-fold table, purged k-fold cross-validation, PSR/DSR (N = registry + variants),
 * PBO across the variants, and the gates with their inputs. Pure and seeded.
 */
export function agentEvidence(input: AgentEvidenceInput): AgentEvidence {
  const config = parseAgentConfig(input.config);
  const { snapshot } = input;
  const n = snapshot.length;
  const h = config.horizonBars;
  const labels = labelBars(snapshot.bars.close, config, n);
  const matrix = featureMatrix(snapshot, 0, n);
  const every = retrainBars(config, snapshot.intervalMs);
  const firstTest = FEATURE_LOOKBACK + config.trainBars + h;
  if (n - firstTest < 2 * every || n - firstTest < 64) {
    throw new EngineInputError(
      `evidence needs more bars: ${n} give ${Math.max(0, n - firstTest)} test bars after the first training ` +
        `window (${firstTest} bars); at least ${Math.max(2 * every, 64)} are needed`,
    );
  }
  const testBars = Math.max(every, Math.ceil((n - firstTest) / MAX_FOLDS));

  // Walk-forward: one model per fold, its outputs on the fold's test bars and on its own training rows
  const folds: {
    model: AgentModel;
    trainFrom: number;
    trainTo: number;
    test: FoldOutputs;
    train: FoldOutputs;
  }[] = [];
  for (let start = firstTest; start < n - 1; start += testBars) {
    const end = Math.min(n, start + testBars);
    // Labels of the training rows must end before the test window starts: t + h ≤ start − 1
    const trainTo = start - h;
    const trainFrom = Math.max(FEATURE_LOOKBACK, trainTo - config.trainBars);
    const rows = rangeRows(trainFrom, trainTo);
    const model = fitAgentModel({
      matrix,
      rows,
      labels,
      config,
      trainedAt: closeTime(snapshot, start - 1),
      openTime: snapshot.bars.openTime,
    });
    folds.push({
      model,
      trainFrom,
      trainTo,
      test: foldOutputs(model, matrix, snapshot, config, start, end),
      train: foldOutputs(model, matrix, snapshot, config, trainFrom, trainTo, true),
    });
  }
  const oosFrom = firstTest;
  const oosTo = (folds[folds.length - 1] as (typeof folds)[number]).test.to;
  const periodBars = statsPeriodBars(oosTo - oosFrom, snapshot.intervalMs);

  // Decision-threshold variants around the configuration, all on the same models (the configuration is one of them)
  const thresholds = uniqueSorted(
    [-0.05, 0, 0.05, 0.1].map((d) => clamp(config.entryThreshold + d, 0.34, 0.99)),
  );
  const zs = uniqueSorted([-0.5, 0, 0.5].map((d) => Math.max(0, config.minPredictionZ + d)));
  const variantRuns: { config: AgentConfig; run: RuleRun; returns: Float64Array }[] = [];
  for (const entryThreshold of thresholds) {
    for (const minPredictionZ of zs) {
      const vc = { ...config, entryThreshold, minPredictionZ };
      const run = runRule(
        vc,
        snapshot,
        matrix,
        folds.map((f) => f.test),
        oosFrom,
        oosTo,
      );
      variantRuns.push({
        config: vc,
        run,
        returns: periodReturns(run.equity, run.equity.length, periodBars, 1),
      });
    }
  }
  const selectedIndex = variantRuns.findIndex(
    (v) =>
      v.config.entryThreshold === config.entryThreshold && v.config.minPredictionZ === config.minPredictionZ,
  );
  const selected = variantRuns[selectedIndex] as (typeof variantRuns)[number];
  const moments = returnMoments(selected.returns);
  const variantSharpes = variantRuns.map((v) => returnMoments(v.returns).sharpe);
  // A registry entry without a finite Sharpe (a trial that never traded) counts as a trial with Sharpe 0
  const registry = (input.trials ?? []).map((x) => (Number.isFinite(x) ? x : 0));
  const deflated = deflatedSharpe(moments, [...registry, ...variantSharpes]);
  const pbo =
    variantRuns.length >= 2 && selected.returns.length >= 8
      ? probabilityOfOverfitting(variantRuns.map((v) => v.returns))
      : null;
  const closes = snapshot.bars.close.subarray(oosFrom, oosTo);
  const randomEntry = randomEntryBaseline({
    close: closes,
    periodBars,
    trades: Math.max(1, selected.run.trades),
    exposure: selected.run.exposure,
    // The baseline holds a unit position: its round trip costs the full fee and slippage, twice
    roundTripCost: 2 * (config.feeRate + config.slippage),
    observedSharpe: moments.sharpe,
    samples: input.samples ?? 200,
    seed: config.seed,
  });

  // In-sample: the same rule over each fold's own training rows, stitched
  const inSampleReturns: number[] = [];
  const foldTable: AgentEvidenceFold[] = folds.map((f, k) => {
    const isRun = runRule(config, snapshot, matrix, [f.train], f.train.from, f.train.to);
    const isPeriods = periodReturns(isRun.equity, isRun.equity.length, periodBars, 1);
    for (const r of isPeriods) inSampleReturns.push(r);
    const oos = sliceRun(selected.run, f.test.from - oosFrom, f.test.to - oosFrom);
    return {
      fold: k + 1,
      trainFrom: snapshot.bars.openTime[f.trainFrom] as number,
      trainTo: snapshot.bars.openTime[f.trainTo - 1] as number,
      testFrom: snapshot.bars.openTime[f.test.from] as number,
      testTo: snapshot.bars.openTime[f.test.to - 1] as number,
      trainRows: f.model.rows,
      testBars: f.test.to - f.test.from,
      modelId: f.model.id,
      trades: oos.trades,
      oosReturn: oos.totalReturn,
      inSampleReturn: (isRun.equity[isRun.equity.length - 1] ?? 1) - 1,
      oosAccuracy: accuracyOn(f.test, labels),
      inSampleAccuracy: f.model.inSample.accuracy,
      hitRate: oos.trades > 0 ? oos.wins / oos.trades : null,
    };
  });
  const inSampleSharpe = returnMoments(inSampleReturns).sharpe;
  const retention = inSampleSharpe > 0 ? moments.sharpe / inSampleSharpe : null;

  const cv = purgedCrossValidation(matrix, labels, config, snapshot, input.cvFolds ?? 5);
  const curves = evidenceCurves(snapshot, selected.run, oosFrom, oosTo, config);

  const gates: AgentEvidenceGate[] = [
    {
      gate: 'dsr',
      passed: deflated.dsr >= AGENT_EVIDENCE_GATES.dsr,
      value: Number.isFinite(deflated.dsr) ? deflated.dsr : null,
      limit: AGENT_EVIDENCE_GATES.dsr,
      inputs:
        `Sharpe ${fmt(moments.sharpe)} per ${periodBars}-bar period over ${moments.count} periods, skewness ` +
        `${fmt(moments.skewness)}, kurtosis ${fmt(moments.kurtosis)}; N = ${deflated.trials} trials ` +
        `(${registry.length} in the registry + ${variantRuns.length} variants), V[SR] ` +
        `${fmt(deflated.sharpeVariance)}, SR₀ ${fmt(deflated.expectedMaxSharpe)}`,
    },
    {
      gate: 'pbo',
      passed: pbo !== null && pbo.pbo <= AGENT_EVIDENCE_GATES.pbo,
      value: pbo?.pbo ?? null,
      limit: AGENT_EVIDENCE_GATES.pbo,
      inputs: pbo
        ? `CSCV over ${pbo.strategies} variants, ${pbo.partitions} blocks, ${pbo.splits} splits`
        : 'too few variants or periods for CSCV',
    },
    {
      gate: 'random_entry',
      passed: randomEntry.pValue < AGENT_EVIDENCE_GATES.randomEntryP,
      value: randomEntry.pValue,
      limit: AGENT_EVIDENCE_GATES.randomEntryP,
      inputs:
        `${randomEntry.samples} random-side entries with ${selected.run.trades} trades and ` +
        `${fmt(selected.run.exposure)} exposure; their mean Sharpe ${fmt(randomEntry.meanSharpe)}, 95th percentile ` +
        `${fmt(randomEntry.p95Sharpe)}`,
    },
    {
      gate: 'retention',
      passed: retention !== null && retention >= AGENT_EVIDENCE_GATES.retention,
      value: retention,
      limit: AGENT_EVIDENCE_GATES.retention,
      inputs: `out-of-sample Sharpe ${fmt(moments.sharpe)} against in-sample ${fmt(inSampleSharpe)}`,
    },
  ];

  return {
    config,
    bars: n,
    intervalMs: snapshot.intervalMs,
    retrainBars: every,
    testBars,
    folds: foldTable,
    curves,
    oos: {
      totalReturn: (selected.run.equity[selected.run.equity.length - 1] ?? 1) - 1,
      buyAndHoldReturn:
        (snapshot.bars.close[oosTo - 1] as number) / (snapshot.bars.close[oosFrom - 1] as number) - 1,
      trades: selected.run.trades,
      exposure: selected.run.exposure,
      hitRate: selected.run.trades > 0 ? selected.run.wins / selected.run.trades : null,
      costs: { fees: selected.run.fees, slippage: selected.run.slippage, funding: selected.run.funding },
    },
    statistics: {
      periodBars,
      periods: moments.count,
      sharpe: moments.sharpe,
      skewness: moments.skewness,
      kurtosis: moments.kurtosis,
      inSampleSharpe,
      retention,
      deflated,
      pbo,
      randomEntry,
    },
    variants: variantRuns.map((v, k) => ({
      entryThreshold: v.config.entryThreshold,
      minPredictionZ: v.config.minPredictionZ,
      sharpe: variantSharpes[k] as number,
      selected: k === selectedIndex,
    })),
    cv,
    gates,
    passed: gates.every((g) => g.passed),
  };
}

function fmt(x: number): string {
  return Number.isFinite(x) ? x.toPrecision(3) : String(x);
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, Math.round(x * 1e6) / 1e6));
}

function uniqueSorted(values: number[]): number[] {
  return [...new Set(values)].sort((a, b) => a - b);
}

function rangeRows(from: number, to: number): Int32Array {
  const rows = new Int32Array(Math.max(0, to - from));
  for (let r = 0; r < rows.length; r++) rows[r] = from + r;
  return rows;
}

function closeTime(snapshot: AgentSnapshot, index: number): number {
  return (snapshot.bars.openTime[index] as number) + snapshot.intervalMs;
}

/** The model's outputs on bars [from, to): computed once per fold, shared by every variant */
function foldOutputs(
  model: AgentModel,
  matrix: FeatureMatrix,
  snapshot: AgentSnapshot,
  config: AgentConfig,
  from: number,
  to: number,
  trainingRows = false,
): FoldOutputs {
  const len = to - from;
  const o: FoldOutputs = {
    from,
    to,
    pUp: new Float64Array(len),
    pDown: new Float64Array(len),
    z: new Float64Array(len),
    di: new Float64Array(len),
    edgeLong: new Float64Array(len),
    edgeShort: new Float64Array(len),
    age: new Float64Array(len),
  };
  const cols = AGENT_FEATURE_COUNT;
  const scaled = new Float64Array(cols);
  for (let i = from; i < to; i++) {
    const row = matrix.data.subarray((i - matrix.from) * cols, (i - matrix.from + 1) * cols);
    const out = applyModel(model, row, scaled, !trainingRows);
    const k = i - from;
    o.pUp[k] = out.pUp;
    o.pDown[k] = out.pDown;
    o.z[k] = out.predictionZ;
    o.di[k] = out.dissimilarity;
    o.edgeLong[k] = expectedEdge(model, config, out, 1, snapshot, i);
    o.edgeShort[k] = expectedEdge(model, config, out, -1, snapshot, i);
    o.age[k] = (closeTime(snapshot, i) - model.trainedAt) / HOUR_MS;
  }
  return o;
}

/** The rule run bar by bar over [from, to): equity per bar (start 1) and the trade tallies */
interface RuleRun {
  equity: Float64Array;
  /** Per bar: +1 long, −1 short, 0 flat (held from that bar's close) */
  position: Int8Array;
  trades: number;
  wins: number;
  exposure: number;
  fees: number;
  slippage: number;
  funding: number;
  /** Bar index in the run of each trade's exit (to split trades by fold) */
  exits: number[];
  exitWins: boolean[];
}

/**
 * Runs the decision rule (the same `agentRule` as `decideAgent`) over stitched windows: a position of
 * `sizeFraction` of equity entered and exited at the open after the deciding close (as `applyDecision`'s market
 * orders fill), carried close to close, fees and slippage on entry and exit, funding pro rata per bar, the ATR stop
 * checked against each bar's range (filled at the stop, or at the open if it gapped past; the exchange would refuse
 * a stop already crossed at the open and the next decision would exit: the same price within a bar).
 */
function runRule(
  config: AgentConfig,
  snapshot: AgentSnapshot,
  matrix: FeatureMatrix,
  windows: readonly FoldOutputs[],
  from: number,
  to: number,
): RuleRun {
  const { close, high, low, open } = snapshot.bars;
  const funding = snapshot.aux.fundingRate;
  const len = to - from;
  const equity = new Float64Array(len);
  const position = new Int8Array(len);
  const size = config.sizeFraction;
  const perSide = config.feeRate + config.slippage;
  const fundingShare = snapshot.intervalMs / (FUNDING_HOURS * HOUR_MS);
  let eq = 1;
  let side = 0;
  let stop = Number.NaN;
  let entryEq = 1;
  let trades = 0;
  let wins = 0;
  let inMarket = 0;
  let fees = 0;
  let slip = 0;
  let fund = 0;
  const exits: number[] = [];
  const exitWins: boolean[] = [];
  const closeTrade = (k: number) => {
    eq -= eq * size * perSide;
    fees += size * config.feeRate;
    slip += size * config.slippage;
    trades++;
    const won = eq > entryEq;
    if (won) wins++;
    exits.push(k);
    exitWins.push(won);
    side = 0;
    stop = Number.NaN;
  };
  // Orders decided at a close fill at the next bar's open, as on the exchange: an entry or exit waits one bar
  let pendingEntry = 0;
  let pendingStop = Number.NaN;
  let pendingExit = false;
  const carry = (i: number, base: number, k: number) => {
    // The position rides bar i from `base` (the last close, or the entry's open): the stop first, else to the close
    const stopped = side > 0 ? (low[i] as number) <= stop : (high[i] as number) >= stop;
    if (stopped) {
      const o = open[i] as number;
      const fill = side > 0 ? Math.min(stop, o) : Math.max(stop, o);
      eq *= 1 + side * size * (fill / base - 1);
      closeTrade(k);
      return;
    }
    eq *= 1 + side * size * ((close[i] as number) / base - 1);
    const rate = funding?.[i];
    if (rate !== undefined && Number.isFinite(rate)) {
      const f = side * size * rate * fundingShare;
      eq -= eq * f;
      fund += f;
    }
  };
  let w = 0;
  for (let i = from; i < to; i++) {
    const k = i - from;
    if (side !== 0 && pendingExit) {
      eq *= 1 + side * size * ((open[i] as number) / (close[i - 1] as number) - 1);
      closeTrade(k);
      pendingExit = false;
    } else if (side !== 0) {
      carry(i, close[i - 1] as number, k);
    } else if (pendingEntry !== 0) {
      side = pendingEntry;
      stop = pendingStop;
      pendingEntry = 0;
      eq -= eq * size * perSide;
      fees += size * config.feeRate;
      slip += size * config.slippage;
      entryEq = eq;
      carry(i, open[i] as number, k);
    }
    while (w < windows.length && (windows[w] as FoldOutputs).to <= i) w++;
    const win = windows[w];
    if (win !== undefined && i >= win.from && i < to - 1) {
      const j = i - win.from;
      const rule =
        agentRule(
          side,
          win.pUp[j] as number,
          win.pDown[j] as number,
          win.z[j] as number,
          win.di[j] as number,
          win.age[j] as number,
          win.edgeLong[j] as number,
          win.edgeShort[j] as number,
          config,
        ) & 3;
      if (rule === RULE_EXIT) pendingExit = true;
      else if (rule !== RULE_HOLD) {
        pendingEntry = rule === RULE_LONG ? 1 : -1;
        // The stop's level comes from this close, as applyDecision prices the resting stop order
        const c = close[i] as number;
        const atr = matrix.data[(i - matrix.from) * AGENT_FEATURE_COUNT + ATR_FEATURE] as number;
        pendingStop =
          config.stopAtr > 0 && atr > 0
            ? c * (1 - pendingEntry * config.stopAtr * atr)
            : pendingEntry > 0
              ? -1
              : Number.POSITIVE_INFINITY;
      }
    }
    if (side !== 0 && k === len - 1) closeTrade(k);
    if (side !== 0) inMarket++;
    position[k] = side;
    equity[k] = eq;
  }
  return {
    equity,
    position,
    trades,
    wins,
    exposure: len > 0 ? inMarket / len : 0,
    fees,
    slippage: slip,
    funding: fund,
    exits,
    exitWins,
  };
}

/** The trades and return of bars [a, b) of a run (a fold's share of the stitched run) */
function sliceRun(run: RuleRun, a: number, b: number): { trades: number; wins: number; totalReturn: number } {
  let trades = 0;
  let wins = 0;
  for (let t = 0; t < run.exits.length; t++) {
    const at = run.exits[t] as number;
    if (at >= a && at < b) {
      trades++;
      if (run.exitWins[t]) wins++;
    }
  }
  const before = a > 0 ? (run.equity[a - 1] as number) : 1;
  return { trades, wins, totalReturn: (run.equity[b - 1] as number) / before - 1 };
}

function accuracyOn(o: FoldOutputs, labels: AgentLabels): number | null {
  let correct = 0;
  let count = 0;
  for (let i = o.from; i < o.to; i++) {
    if ((labels.t1[i] as number) < 0) continue;
    count++;
    if (predictedClass(o.pUp[i - o.from] as number, o.pDown[i - o.from] as number) === labels.label[i])
      correct++;
  }
  return count > 0 ? correct / count : null;
}

/**
 * Purged k-fold cross-validation over the labelled rows: each block is tested by a model trained on the other rows,
 * minus those whose label [t, t1] overlaps the block (purge) and those in the 1% of rows after it (embargo).
 */
function purgedCrossValidation(
  matrix: FeatureMatrix,
  labels: AgentLabels,
  config: AgentConfig,
  snapshot: AgentSnapshot,
  k: number,
): AgentEvidence['cv'] {
  const first = FEATURE_LOOKBACK;
  const last = labels.labelled;
  const total = last - first;
  const embargo = Math.ceil(total * 0.01);
  const folds: AgentCvFold[] = [];
  if (!(Number.isInteger(k) && k >= 2) || total < k * MIN_TRAINING_ROWS) {
    return { folds, embargoBars: embargo, meanAccuracy: Number.NaN, meanBaselineAccuracy: Number.NaN };
  }
  const scaled = new Float64Array(AGENT_FEATURE_COUNT);
  for (let b = 0; b < k; b++) {
    const a = first + Math.floor((b * total) / k);
    const e = first + Math.floor(((b + 1) * total) / k);
    const rows: number[] = [];
    let purged = 0;
    let embargoed = 0;
    for (let t = first; t < last; t++) {
      if (t >= a && t < e) continue;
      if (t < a && (labels.t1[t] as number) >= a) {
        purged++;
        continue;
      }
      if (t >= e && t < e + embargo) {
        embargoed++;
        continue;
      }
      rows.push(t);
    }
    const model = fitAgentModel({
      matrix,
      rows: Int32Array.from(rows),
      labels,
      config,
      trainedAt: closeTime(snapshot, e - 1),
      openTime: snapshot.bars.openTime,
    });
    let correct = 0;
    let loss = 0;
    for (let t = a; t < e; t++) {
      const out = applyModel(
        model,
        matrix.data.subarray(t * AGENT_FEATURE_COUNT, (t + 1) * AGENT_FEATURE_COUNT),
        scaled,
      );
      const y = labels.label[t] as number;
      if (predictedClass(out.pUp, out.pDown) === y) correct++;
      loss += (binary(out.pUp, y === 1) + binary(out.pDown, y === -1)) / 2;
    }
    const inSample = model.inSample;
    folds.push({
      fold: b + 1,
      from: a,
      to: e,
      trainRows: rows.length,
      purged,
      embargoed,
      accuracy: correct / (e - a),
      logLoss: loss / (e - a),
      baselineAccuracy: baselineOn(labels, a, e, inSample),
    });
  }
  return {
    folds,
    embargoBars: embargo,
    meanAccuracy: folds.reduce((s, f) => s + f.accuracy, 0) / folds.length,
    meanBaselineAccuracy: folds.reduce((s, f) => s + f.baselineAccuracy, 0) / folds.length,
  };
}

function binary(p: number, y: boolean): number {
  const q = Math.min(1 - 1e-15, Math.max(1e-15, p));
  return y ? -Math.log(q) : -Math.log(1 - q);
}

/** Accuracy on [a, e) of predicting the training rows' commonest class */
function baselineOn(labels: AgentLabels, a: number, e: number, train: AgentModel['inSample']): number {
  const common = train.flat >= train.up && train.flat >= train.down ? 0 : train.up >= train.down ? 1 : -1;
  let hits = 0;
  for (let t = a; t < e; t++) if (labels.label[t] === common) hits++;
  return hits / (e - a);
}

/** Equity curves sampled to at most CURVE_POINTS: the agent, buy-and-hold and one seeded random-entry path */
function evidenceCurves(
  snapshot: AgentSnapshot,
  run: RuleRun,
  from: number,
  to: number,
  config: AgentConfig,
): AgentEvidenceCurves {
  const len = to - from;
  const close = snapshot.bars.close;
  const base = close[from - 1] as number;
  // One random-entry path with the agent's trade count and exposure (the baseline's distribution is in statistics)
  const random = createRandom(config.seed + 1);
  const randomEquity = new Float64Array(len);
  const hold = run.trades > 0 ? Math.max(1, Math.round((run.exposure * len) / run.trades)) : 0;
  let eq = 1;
  let side = 0;
  let left = 0;
  const entryChance = run.trades > 0 ? run.trades / Math.max(1, len - run.exposure * len) : 0;
  const perSide = (config.feeRate + config.slippage) * config.sizeFraction;
  for (let k = 0; k < len; k++) {
    const i = from + k;
    if (side !== 0) {
      eq *= 1 + side * config.sizeFraction * ((close[i] as number) / (close[i - 1] as number) - 1);
      if (--left <= 0) {
        eq -= eq * perSide;
        side = 0;
      }
    } else if (hold > 0 && random.next() < entryChance) {
      side = random.next() < 0.5 ? -1 : 1;
      left = hold;
      eq -= eq * perSide;
    }
    randomEquity[k] = eq;
  }
  const step = Math.max(1, Math.ceil(len / CURVE_POINTS));
  const curves: AgentEvidenceCurves = { time: [], agent: [], buyAndHold: [], randomEntry: [] };
  for (let k = 0; k < len; k += step) {
    const at = Math.min(len - 1, k + step - 1);
    curves.time.push(snapshot.bars.openTime[from + at] as number);
    curves.agent.push(run.equity[at] as number);
    curves.buyAndHold.push((close[from + at] as number) / base);
    curves.randomEntry.push(randomEquity[at] as number);
  }
  return curves;
}
