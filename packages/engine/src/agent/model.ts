import { EngineInputError } from '../errors';
import { createRandom } from '../random/prng';
import { parseAgentConfig } from './config';
import {
  AGENT_FEATURE_COUNT,
  AGENT_FEATURE_IDS,
  FEATURE_LOOKBACK,
  type FeatureMatrix,
  featureMatrix,
} from './features';
import { ContentHash } from './hash';
import { type AgentLabels, labelBars } from './labels';
import type { AgentConfig, AgentModel, AgentSnapshot } from './types';

/** Fewest labelled rows a model is trained on */
export const MIN_TRAINING_ROWS = 100;
/** Random pairs of training rows whose mean distance scales the dissimilarity index */
const PAIR_SAMPLES = 20_000;
/** Scaled training rows stored with the model: the dissimilarity index's nearest neighbour is searched among them */
const REFERENCE_ROWS = 256;
const NEWTON_MAX_ITERATIONS = 30;
const NEWTON_TOLERANCE = 1e-7;
/** From this many rows the fit starts from a fit on a strided subsample (a warm start) */
const WARM_START_ROWS = 50_000;
const WARM_START_STRIDE = 8;

export interface TrainAgentInput {
  snapshot: AgentSnapshot;
  config: AgentConfig;
  /** Bars [from, to) whose labels may be used (rows whose label ends past the snapshot are left out) */
  from: number;
  to: number;
  /** Market time (ms) the model is trained at: its age is measured from here */
  trainedAt: number;
}

/**
 * Trains the agent's model on rows [from, to) of the snapshot: features scaled on those rows only, one-vs-rest L2
 * logistic regressions for up and down fitted by Newton's method (26 parameters: an exact Hessian solve per step
 * converges in a handful of passes over the rows), score statistics and the dissimilarity reference. Pure and
 * deterministic: the same input gives the same model, id included.
 */
export function trainAgentModel(input: TrainAgentInput): AgentModel {
  const config = parseAgentConfig(input.config);
  const { snapshot } = input;
  const labels = labelBars(snapshot.bars.close, config, snapshot.length);
  const from = Math.max(input.from, FEATURE_LOOKBACK);
  const to = Math.min(input.to, labels.labelled);
  if (!(to - from >= MIN_TRAINING_ROWS)) {
    throw new EngineInputError(
      `training needs at least ${MIN_TRAINING_ROWS} labelled rows after the ${FEATURE_LOOKBACK}-bar lookback; ` +
        `bars [${input.from}, ${input.to}) of ${snapshot.length} give ${Math.max(0, to - from)}`,
    );
  }
  const matrix = featureMatrix(snapshot, from, to);
  const rows = new Int32Array(to - from);
  for (let r = 0; r < rows.length; r++) rows[r] = r;
  return fitAgentModel({
    matrix,
    rows,
    labels,
    config,
    trainedAt: input.trainedAt,
    openTime: snapshot.bars.openTime,
  });
}

export interface FitInput {
  matrix: FeatureMatrix;
  /** Rows of the matrix to train on (indices into the matrix, ascending) */
  rows: Int32Array;
  /** Labels of the whole snapshot (indexed by bar, so bar = matrix.from + row) */
  labels: AgentLabels;
  config: AgentConfig;
  trainedAt: number;
  openTime: Float64Array;
}

/** Trains on chosen rows of a feature matrix: the one fitting path (training, walk-forward folds, purged CV) */
export function fitAgentModel(input: FitInput): AgentModel {
  const { matrix, rows, labels, config } = input;
  const cols = matrix.cols;
  const n = rows.length;
  if (n < MIN_TRAINING_ROWS)
    throw new EngineInputError(`training needs at least ${MIN_TRAINING_ROWS} rows, got ${n}`);
  const src = matrix.data;

  // Scaler on the training rows only, NaN (missing) values left out
  const mean = new Float64Array(cols);
  const std = new Float64Array(cols);
  const count = new Float64Array(cols);
  for (let r = 0; r < n; r++) {
    const o = (rows[r] as number) * cols;
    for (let j = 0; j < cols; j++) {
      const x = src[o + j] as number;
      if (!Number.isNaN(x)) {
        mean[j] = (mean[j] as number) + x;
        count[j] = (count[j] as number) + 1;
      }
    }
  }
  for (let j = 0; j < cols; j++)
    mean[j] = (count[j] as number) > 0 ? (mean[j] as number) / (count[j] as number) : 0;
  for (let r = 0; r < n; r++) {
    const o = (rows[r] as number) * cols;
    for (let j = 0; j < cols; j++) {
      const x = src[o + j] as number;
      if (!Number.isNaN(x)) {
        const d = x - (mean[j] as number);
        std[j] = (std[j] as number) + d * d;
      }
    }
  }
  for (let j = 0; j < cols; j++) {
    const sd = (count[j] as number) > 1 ? Math.sqrt((std[j] as number) / (count[j] as number)) : 0;
    // A constant or absent feature scales to 0 everywhere: its coefficient stays at 0 under L2
    std[j] = sd > 0 ? sd : 1;
  }

  // Scaled rows, column-major (missing → the training mean, 0 after scaling), and the two one-vs-rest targets
  const x = new Float64Array(n * cols);
  const yUp = new Float64Array(n);
  const yDown = new Float64Array(n);
  let upCount = 0;
  let downCount = 0;
  let upMove = 0;
  let downMove = 0;
  for (let r = 0; r < n; r++) {
    const row = rows[r] as number;
    const o = row * cols;
    for (let j = 0; j < cols; j++) {
      const v = src[o + j] as number;
      x[j * n + r] = !Number.isNaN(v) ? (v - (mean[j] as number)) / (std[j] as number) : 0;
    }
    const bar = matrix.from + row;
    const lab = labels.label[bar] as number;
    if (lab > 0) {
      yUp[r] = 1;
      upCount++;
      upMove += labels.forward[bar] as number;
    } else if (lab < 0) {
      yDown[r] = 1;
      downCount++;
      downMove -= labels.forward[bar] as number;
    }
  }

  const up = fitLogistic(x, n, cols, yUp, config.l2);
  const down = fitLogistic(x, n, cols, yDown, config.l2);

  // Score distribution and in-sample figures
  let sSum = 0;
  let sSq = 0;
  let correct = 0;
  let logLoss = 0;
  const zUp = new Float64Array(n).fill(up[cols] as number);
  const zDown = new Float64Array(n).fill(down[cols] as number);
  for (let j = 0; j < cols; j++) {
    const o = j * n;
    const wu = up[j] as number;
    const wd = down[j] as number;
    for (let r = 0; r < n; r++) {
      const v = x[o + r] as number;
      zUp[r] = (zUp[r] as number) + wu * v;
      zDown[r] = (zDown[r] as number) + wd * v;
    }
  }
  for (let r = 0; r < n; r++) {
    const zu = zUp[r] as number;
    const zd = zDown[r] as number;
    const s = zu - zd;
    sSum += s;
    sSq += s * s;
    const pu = sigmoid(zu);
    const pd = sigmoid(zd);
    const predicted = predictedClass(pu, pd);
    const actual = yUp[r] === 1 ? 1 : yDown[r] === 1 ? -1 : 0;
    if (predicted === actual) correct++;
    logLoss += (binaryLoss(pu, yUp[r] as number) + binaryLoss(pd, yDown[r] as number)) / 2;
  }
  const scoreMean = sSum / n;
  const scoreStd = Math.sqrt(Math.max(0, sSq / n - scoreMean * scoreMean));

  const { meanPairwiseDistance, referenceRows } = dissimilarityReference(x, n, cols, config.seed);
  const firstBar = matrix.from + (rows[0] as number);
  const lastBar = matrix.from + (rows[n - 1] as number);
  const body: Omit<AgentModel, 'id'> = {
    format: 1,
    featureIds: [...AGENT_FEATURE_IDS],
    trainedFrom: input.openTime[firstBar] as number,
    trainedTo: input.openTime[lastBar] as number,
    trainedAt: input.trainedAt,
    rows: n,
    mean: Array.from(mean),
    std: Array.from(std),
    up: { intercept: up[cols] as number, coefficients: Array.from(up.subarray(0, cols)) },
    down: { intercept: down[cols] as number, coefficients: Array.from(down.subarray(0, cols)) },
    moves: { up: upCount > 0 ? upMove / upCount : 0, down: downCount > 0 ? downMove / downCount : 0 },
    scoreMean,
    scoreStd: scoreStd > 0 ? scoreStd : 1,
    meanPairwiseDistance,
    referenceRows,
    inSample: {
      accuracy: correct / n,
      logLoss: logLoss / n,
      up: upCount / n,
      flat: (n - upCount - downCount) / n,
      down: downCount / n,
    },
  };
  return { id: modelId(body, config), ...body };
}

function modelId(body: Omit<AgentModel, 'id'>, config: AgentConfig): string {
  const h = new ContentHash().string(JSON.stringify(config));
  h.number(body.trainedFrom).number(body.trainedTo).number(body.trainedAt).number(body.rows);
  h.numbers(body.mean).numbers(body.std);
  h.number(body.up.intercept).numbers(body.up.coefficients);
  h.number(body.down.intercept).numbers(body.down.coefficients);
  return `agm_${h.hex()}`;
}

export function sigmoid(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

function binaryLoss(p: number, y: number): number {
  const q = Math.min(1 - 1e-15, Math.max(1e-15, p));
  return y === 1 ? -Math.log(q) : -Math.log(1 - q);
}

/** The likeliest class, with p(flat) taken as what the two one-vs-rest probabilities leave (1 − p(up) − p(down)) */
export function predictedClass(pUp: number, pDown: number): -1 | 0 | 1 {
  const pFlat = 1 - pUp - pDown;
  if (pUp >= pDown && pUp >= pFlat) return 1;
  if (pDown > pUp && pDown >= pFlat) return -1;
  return 0;
}

/** Σ a[k]·b[k] over [0, n) of two column views, four accumulators wide (the adds of one do not wait on another) */
function dot(a: Float64Array, ao: number, b: Float64Array, bo: number, n: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let k = 0;
  for (; k + 3 < n; k += 4) {
    s0 += (a[ao + k] as number) * (b[bo + k] as number);
    s1 += (a[ao + k + 1] as number) * (b[bo + k + 1] as number);
    s2 += (a[ao + k + 2] as number) * (b[bo + k + 2] as number);
    s3 += (a[ao + k + 3] as number) * (b[bo + k + 3] as number);
  }
  for (; k < n; k++) s0 += (a[ao + k] as number) * (b[bo + k] as number);
  return s0 + s1 + s2 + s3;
}

/**
 * L2 logistic regression by Newton's method on the mean log loss + (l2 / 2)·‖w‖² (intercept unpenalised). `x` is
 * column-major (feature j of row r at x[j·n + r]), so each Hessian entry is one contiguous dot product. Returns
 * cols coefficients then the intercept. A step that raises the loss is halved.
 */
export function fitLogistic(
  x: Float64Array,
  n: number,
  cols: number,
  y: Float64Array,
  l2: number,
): Float64Array {
  const p = cols + 1;
  let w: Float64Array = new Float64Array(p);
  if (n >= WARM_START_ROWS) {
    // Start from the fit of every WARM_START_STRIDE-th row: near the optimum, so fewer full passes (the cost) are
    // needed. Same optimum, same tolerance: only the path there is shorter
    const m = Math.floor(n / WARM_START_STRIDE);
    const xs = new Float64Array(m * cols);
    const ys = new Float64Array(m);
    for (let r = 0; r < m; r++) {
      const src = r * WARM_START_STRIDE;
      ys[r] = y[src] as number;
      for (let j = 0; j < cols; j++) xs[j * m + r] = x[j * n + src] as number;
    }
    w = fitLogistic(xs, m, cols, ys, l2);
  } else {
    // Start at the base rate: the intercept alone, so the first step is already small
    let pos = 0;
    for (let r = 0; r < n; r++) pos += y[r] as number;
    const base = Math.min(1 - 1e-6, Math.max(1e-6, pos / n));
    w[cols] = Math.log(base / (1 - base));
  }
  const grad = new Float64Array(p);
  const hess = new Float64Array(p * p);
  const step = new Float64Array(p);
  const prev = new Float64Array(p);
  const z = new Float64Array(n);
  const err = new Float64Array(n);
  const weight = new Float64Array(n);
  const scaled = new Float64Array(n);
  let prevLoss = Number.POSITIVE_INFINITY;
  let scale = 1;
  for (let iter = 0; iter < NEWTON_MAX_ITERATIONS; iter++) {
    z.fill(w[cols] as number);
    for (let j = 0; j < cols; j++) {
      const wj = w[j] as number;
      if (wj === 0) continue;
      const o = j * n;
      for (let r = 0; r < n; r++) z[r] = (z[r] as number) + wj * (x[o + r] as number);
    }
    let loss = 0;
    let sumErr = 0;
    let sumWeight = 0;
    for (let r = 0; r < n; r++) {
      const zr = z[r] as number;
      const pr = sigmoid(zr);
      const yr = y[r] as number;
      // log(1 + e^z) − y·z, stable for large |z|
      loss += (zr > 0 ? zr + Math.log1p(Math.exp(-zr)) : Math.log1p(Math.exp(zr))) - yr * zr;
      const e = pr - yr;
      const s = pr * (1 - pr);
      err[r] = e;
      weight[r] = s;
      sumErr += e;
      sumWeight += s;
    }
    let penalty = 0;
    for (let j = 0; j < cols; j++) penalty += (w[j] as number) ** 2;
    loss = loss / n + (l2 / 2) * penalty;
    if (loss > prevLoss + 1e-12 * Math.abs(prevLoss) && scale > 1e-4) {
      // The last step overshot: go back and take half of it
      scale /= 2;
      for (let a = 0; a < p; a++) w[a] = (prev[a] as number) - scale * (step[a] as number);
      continue;
    }
    prevLoss = loss;
    for (let a = 0; a < cols; a++) {
      const ao = a * n;
      grad[a] = dot(err, 0, x, ao, n) / n + l2 * (w[a] as number);
      for (let r = 0; r < n; r++) scaled[r] = (weight[r] as number) * (x[ao + r] as number);
      for (let b = a; b < cols; b++) {
        const v = dot(scaled, 0, x, b * n, n) / n + (a === b ? l2 : 0);
        hess[a * p + b] = v;
        hess[b * p + a] = v;
      }
      let si = 0;
      for (let r = 0; r < n; r++) si += scaled[r] as number;
      hess[a * p + cols] = si / n;
      hess[cols * p + a] = si / n;
    }
    grad[cols] = sumErr / n;
    hess[cols * p + cols] = sumWeight / n + 1e-12;
    if (!choleskySolve(hess, p, grad, step)) break;
    let largest = 0;
    for (let a = 0; a < p; a++) {
      prev[a] = w[a] as number;
      w[a] = (w[a] as number) - (step[a] as number);
      largest = Math.max(largest, Math.abs(step[a] as number));
    }
    scale = 1;
    if (largest < NEWTON_TOLERANCE) break;
  }
  return w;
}

/** Solves A·x = b for a symmetric positive-definite A (p × p, overwritten by its factor); false if not SPD */
function choleskySolve(a: Float64Array, p: number, b: Float64Array, out: Float64Array): boolean {
  for (let j = 0; j < p; j++) {
    let d = a[j * p + j] as number;
    for (let k = 0; k < j; k++) d -= (a[j * p + k] as number) ** 2;
    if (!(d > 0)) return false;
    const l = Math.sqrt(d);
    a[j * p + j] = l;
    for (let i = j + 1; i < p; i++) {
      let s = a[i * p + j] as number;
      for (let k = 0; k < j; k++) s -= (a[i * p + k] as number) * (a[j * p + k] as number);
      a[i * p + j] = s / l;
    }
  }
  for (let i = 0; i < p; i++) {
    let s = b[i] as number;
    for (let k = 0; k < i; k++) s -= (a[i * p + k] as number) * (out[k] as number);
    out[i] = s / (a[i * p + i] as number);
  }
  for (let i = p - 1; i >= 0; i--) {
    let s = out[i] as number;
    for (let k = i + 1; k < p; k++) s -= (a[k * p + i] as number) * (out[k] as number);
    out[i] = s / (a[i * p + i] as number);
  }
  return true;
}

/**
 * The dissimilarity index's scale and reference, seeded: the mean distance between PAIR_SAMPLES random pairs of
 * scaled training rows (an unbiased estimate of the mean pairwise distance, within ~1% at this many pairs, at a
 * fixed cost whatever the window), and REFERENCE_ROWS distinct rows kept for the nearest-neighbour search.
 */
function dissimilarityReference(
  x: Float64Array,
  n: number,
  cols: number,
  seed: number,
): { meanPairwiseDistance: number; referenceRows: number[][] } {
  const random = createRandom(seed);
  let sum = 0;
  for (let k = 0; k < PAIR_SAMPLES; k++) {
    const a = Math.floor(random.next() * n);
    let b = Math.floor(random.next() * (n - 1));
    if (b >= a) b++;
    let d = 0;
    for (let j = 0; j < cols; j++) {
      const diff = (x[j * n + a] as number) - (x[j * n + b] as number);
      d += diff * diff;
    }
    sum += Math.sqrt(d);
  }
  // Partial Fisher–Yates over row indices: distinct rows in seeded order
  const m = Math.min(n, REFERENCE_ROWS);
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const referenceRows: number[][] = [];
  for (let i = 0; i < m; i++) {
    const j = i + Math.floor(random.next() * (n - i));
    const r = order[j] as number;
    order[j] = order[i] as number;
    order[i] = r;
    const row = new Array<number>(cols);
    for (let c = 0; c < cols; c++) row[c] = x[c * n + r] as number;
    referenceRows.push(row);
  }
  return { meanPairwiseDistance: sum > 0 ? sum / PAIR_SAMPLES : 1, referenceRows };
}

/** What the model says about one raw feature row */
export interface ModelOutput {
  scaled: Float64Array;
  logitUp: number;
  logitDown: number;
  pUp: number;
  pDown: number;
  /** logit up − logit down, and its z-score against the training rows */
  score: number;
  predictionZ: number;
  /** Distance to the nearest reference row / mean pairwise distance of the training rows */
  dissimilarity: number;
}

/** Models already checked against this engine's features (a stored model is checked once, not per bar) */
const checkedModels = new WeakSet<AgentModel>();

/**
 * Refuses a model this engine cannot apply: another format, or features that are not this engine's in this order
 * (a model stored before a feature changed must be retrained, never applied to the wrong columns).
 */
export function checkModel(model: AgentModel): void {
  if (checkedModels.has(model)) return;
  if (model.format !== 1)
    throw new EngineInputError(`model ${model.id} has format ${model.format}; this engine reads 1`);
  const ids = model.featureIds;
  const same = ids.length === AGENT_FEATURE_COUNT && ids.every((id, j) => id === AGENT_FEATURE_IDS[j]);
  const sized =
    model.mean.length === AGENT_FEATURE_COUNT &&
    model.std.length === AGENT_FEATURE_COUNT &&
    model.up.coefficients.length === AGENT_FEATURE_COUNT &&
    model.down.coefficients.length === AGENT_FEATURE_COUNT &&
    model.referenceRows.every((r) => r.length === AGENT_FEATURE_COUNT);
  if (!same || !sized) {
    throw new EngineInputError(
      `model ${model.id} was trained on other features (${ids.join(', ')}) than this engine computes: retrain it`,
    );
  }
  checkedModels.add(model);
}

/**
 * Applies the model to one raw feature row (missing values → 0 after scaling, as in training). `dissimilarity:
 * false` skips the nearest-neighbour search (for the model's own training rows, whose distance is 0 by definition).
 */
export function applyModel(
  model: AgentModel,
  row: Float64Array,
  scaled = new Float64Array(row.length),
  dissimilarity = true,
): ModelOutput {
  checkModel(model);
  const cols = AGENT_FEATURE_COUNT;
  if (row.length !== cols) throw new EngineInputError(`a feature row has ${cols} values, got ${row.length}`);
  let zu = model.up.intercept;
  let zd = model.down.intercept;
  for (let j = 0; j < cols; j++) {
    const v = row[j] as number;
    const s = !Number.isNaN(v) ? (v - (model.mean[j] as number)) / (model.std[j] as number) : 0;
    scaled[j] = s;
    zu += (model.up.coefficients[j] as number) * s;
    zd += (model.down.coefficients[j] as number) * s;
  }
  let nearest = dissimilarity ? Number.POSITIVE_INFINITY : 0;
  for (const ref of dissimilarity ? model.referenceRows : []) {
    let d = 0;
    for (let j = 0; j < cols; j++) {
      const diff = (scaled[j] as number) - (ref[j] as number);
      d += diff * diff;
      if (d >= nearest) break;
    }
    if (d < nearest) nearest = d;
  }
  const score = zu - zd;
  return {
    scaled,
    logitUp: zu,
    logitDown: zd,
    pUp: sigmoid(zu),
    pDown: sigmoid(zd),
    score,
    predictionZ: (score - model.scoreMean) / model.scoreStd,
    dissimilarity: Number.isFinite(nearest) ? Math.sqrt(nearest) / model.meanPairwiseDistance : 0,
  };
}
