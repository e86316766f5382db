/**
 * The AI agent's contract inside the engine (issue: AI agents; design notes in the ai-agent reference). An agent is
 * a supervised model wrapped in deterministic rules: point-in-time snapshot → features → model → trust gates →
 * decision. Everything here is pure and seeded; training runs in a worker thread (`@kestrel/engine/node`), the
 * server's bot runtime owns the clock, the risk guard (outside the model, fail-closed) and the order manager.
 *
 * These types are shared by the engine (features, model, gates, evidence), the server (agent runtime, decision
 * records, LLM reviewer) and the API contracts. Change them deliberately: stored models and decision records use them.
 */
import type { BarColumns } from '../bars/bars';

/**
 * Extra point-in-time columns beside OHLCV, aligned with the bars: value i is what was known when bar i closed.
 * Any column may be missing (the simulator or a short history may not have it): features built from it are then
 * NaN, imputed as the training mean (0 after scaling), and flagged `available: false` in the explanation.
 */
export interface AgentAuxColumns {
  /** Last funding rate published at or before the bar's close (fraction per funding interval) */
  fundingRate?: Float64Array;
  /** Open interest at the bar's close (contracts) */
  openInterest?: Float64Array;
  /** Mark price and index price at the bar's close: their gap is the basis */
  markPrice?: Float64Array;
  indexPrice?: Float64Array;
  /** BTCUSDT close at the same bar times (the symbol's own close when it is BTCUSDT) */
  btcClose?: Float64Array;
}

/** Everything known at the close of bar `length - 1` and nothing after it */
export interface AgentSnapshot {
  intervalMs: number;
  bars: BarColumns;
  aux: AgentAuxColumns;
  /** Bars in the snapshot (columns may be longer: only [0, length) may be read) */
  length: number;
}

/** One feature of the model, described for the page */
export interface AgentFeatureSpec {
  /** Stable id stored in models and decision records, e.g. `ret_4`, `rsi_14`, `funding` */
  id: string;
  /** Plain words for the decision record ("Return over the last 4 bars") */
  label: string;
  /** Which aux column it needs, if any */
  needs?: keyof AgentAuxColumns;
}

/** The agent's settings: stored with the bot as its params (validated by the engine's zod schema) */
export interface AgentConfig {
  /** Bars ahead the label looks (forward return over `horizonBars`) */
  horizonBars: number;
  /** |forward return| below this fraction (after fees) is labelled flat, not up or down */
  deadZone: number;
  /** Training window, bars (sliding) */
  trainBars: number;
  /** Retrain cadence in hours of market time */
  retrainHours: number;
  /** Past this model age (hours) no new entries are allowed; exits still are */
  expiryHours: number;
  /** L2 penalty of the logistic regression */
  l2: number;
  /** Probability an entry needs (long: p(up) ≥ threshold; short: p(down) ≥ threshold) */
  entryThreshold: number;
  /** Trust gates: largest dissimilarity index, smallest |prediction z-score| */
  maxDissimilarity: number;
  minPredictionZ: number;
  /** Cost assumptions the edge gate compares against (fractions of notional) */
  feeRate: number;
  slippage: number;
  /** Fraction of the budget one entry commits, and the stop distance as multiples of ATR */
  sizeFraction: number;
  stopAtr: number;
  /** Seed of every random choice (DI subsample, random-entry baseline) */
  seed: number;
}

/** A trained model, serialisable as JSON (stored in the database, replayed exactly) */
export interface AgentModel {
  /** Content hash of config + training window + coefficients: the id decision records cite */
  id: string;
  /** The model format version this engine writes and reads */
  format: 1;
  featureIds: string[];
  /** Open time of the first and last training bar, and when (market time, ms) it was trained */
  trainedFrom: number;
  trainedTo: number;
  trainedAt: number;
  rows: number;
  /** Per feature: scaler fitted on the training window only */
  mean: number[];
  std: number[];
  /** One-vs-rest logistic regressions on scaled features: p(up) and p(down) */
  up: { intercept: number; coefficients: number[] };
  down: { intercept: number; coefficients: number[] };
  /**
   * Mean forward return of the training rows labelled up, and mean fall of those labelled down (both positive
   * fractions): with p(up) and p(down) they give the expected edge the edge gate compares with costs
   */
  moves: { up: number; down: number };
  /** Training distribution of the model's score (logit up − logit down), for the prediction z-score gate */
  scoreMean: number;
  scoreStd: number;
  /** Mean pairwise distance of the training set (seeded subsample) and a seeded sample of scaled training rows */
  meanPairwiseDistance: number;
  referenceRows: number[][];
  /** In-sample figures (never the headline): accuracy, log loss, class balance */
  inSample: { accuracy: number; logLoss: number; up: number; flat: number; down: number };
}

export type AgentAction = 'enter_long' | 'enter_short' | 'exit' | 'hold';

/** Why a decision is what it is: stable codes the page turns into words */
export type AgentReasonCode =
  | 'signal_long'
  | 'signal_short'
  | 'below_threshold'
  | 'model_stale'
  | 'no_model'
  | 'dissimilar'
  | 'weak_prediction'
  | 'edge_below_costs'
  | 'already_in_position'
  | 'exit_signal'
  | 'stop_hit'
  | 'insufficient_history';

export interface AgentFeatureContribution {
  id: string;
  /** Raw and scaled value, and coefficient × scaled value in the chosen side's logit */
  value: number;
  scaled: number;
  coefficient: number;
  contribution: number;
  available: boolean;
}

export interface AgentGateResult {
  gate: 'model_fresh' | 'dissimilarity' | 'prediction_z' | 'edge';
  passed: boolean;
  value: number;
  limit: number;
}

/** What the model and its gates decided at one closed bar, before the risk guard and any reviewer */
export interface AgentDecision {
  /** Open time of the bar that closed */
  barTime: number;
  action: AgentAction;
  /** Fraction of the budget (0 for hold and exit) and stop distance as a fraction of price (null: none) */
  sizeFraction: number;
  stopPct: number | null;
  reasonCodes: AgentReasonCode[];
  modelId: string | null;
  modelAgeHours: number | null;
  pUp: number | null;
  pDown: number | null;
  threshold: number;
  /** Expected edge of the chosen side after costs (fraction), when computed */
  expectedEdge: number | null;
  dissimilarity: number | null;
  predictionZ: number | null;
  contributions: AgentFeatureContribution[];
  gates: AgentGateResult[];
  /** Hash of the snapshot the decision was made on (reproducibility) */
  snapshotHash: string;
}

/** The agent's position as the decision needs it (signed quantity, entry, stop) */
export interface AgentPositionView {
  qty: number;
  entryPrice: number | null;
  stopPrice: number | null;
}
