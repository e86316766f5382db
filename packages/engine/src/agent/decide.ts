import { roundTripCost } from './config';
import {
  AGENT_FEATURE_COUNT,
  AGENT_FEATURES,
  ATR_FEATURE,
  FEATURE_LOOKBACK,
  writeFeatureRow,
} from './features';
import { ContentHash } from './hash';
import { applyModel, type ModelOutput } from './model';
import type {
  AgentConfig,
  AgentDecision,
  AgentFeatureContribution,
  AgentGateResult,
  AgentModel,
  AgentPositionView,
  AgentReasonCode,
  AgentSnapshot,
} from './types';

const HOUR_MS = 3_600_000;
/** Hours between Binance funding settlements (the funding rate is per interval) */
const FUNDING_HOURS = 8;

export interface DecideInput {
  /** The current model, or null before the first training (then: hold, exits on stops only) */
  model: AgentModel | null;
  snapshot: AgentSnapshot;
  config: AgentConfig;
  position: AgentPositionView;
  /** Time (ms) the decision is made: model age is measured to it (market time in a backtest) */
  now: number;
}

/**
 * The agent's decision at the close of the snapshot's last bar. Entries pass every trust gate (fresh model,
 * dissimilarity, prediction z-score, expected edge after costs and funding) or become a hold carrying the failed
 * gates' reason codes. Exits are never gated: a stop that was hit or a model leaning against the position exits
 * even with a stale or dissimilar model. Pure: the same input gives the same record, byte for byte.
 */
export function decideAgent(input: DecideInput): AgentDecision {
  const { model, snapshot, config, position } = input;
  const index = snapshot.length - 1;
  const barTime = index >= 0 ? (snapshot.bars.openTime[index] as number) : Number.NaN;
  const base = {
    barTime,
    sizeFraction: 0,
    stopPct: null as number | null,
    modelId: model?.id ?? null,
    modelAgeHours: model ? (input.now - model.trainedAt) / HOUR_MS : null,
    pUp: null as number | null,
    pDown: null as number | null,
    threshold: config.entryThreshold,
    expectedEdge: null as number | null,
    dissimilarity: null as number | null,
    predictionZ: null as number | null,
    contributions: [] as AgentFeatureContribution[],
    gates: [] as AgentGateResult[],
    snapshotHash: snapshotHash(snapshot),
  };
  const held = position.qty;
  const close = index >= 0 ? (snapshot.bars.close[index] as number) : Number.NaN;

  // A stop the exchange did not execute (a port without stop orders): exit at once, whatever the model says
  if (held !== 0 && position.stopPrice !== null && index >= 0) {
    const hit =
      held > 0
        ? (snapshot.bars.low[index] as number) <= position.stopPrice
        : (snapshot.bars.high[index] as number) >= position.stopPrice;
    if (hit) return { ...base, action: 'exit', reasonCodes: ['stop_hit'] };
  }
  // Too few bars for the features, or a bar without a usable close: nothing to base a decision on
  if (index < FEATURE_LOOKBACK || !(close > 0)) {
    return { ...base, action: 'hold', reasonCodes: ['insufficient_history'] };
  }
  if (model === null) {
    return {
      ...base,
      action: 'hold',
      reasonCodes: held !== 0 ? ['already_in_position', 'no_model'] : ['no_model'],
    };
  }

  const row = new Float64Array(AGENT_FEATURE_COUNT);
  writeFeatureRow(snapshot, index, row, 0);
  const out = applyModel(model, row);
  const atrPct = row[ATR_FEATURE] as number;
  const common = {
    ...base,
    pUp: out.pUp,
    pDown: out.pDown,
    dissimilarity: out.dissimilarity,
    predictionZ: out.predictionZ,
  };

  if (held !== 0) {
    // In a position: exit once the model leans the other way (stale or not: exits are never gated)
    const against = agentRule(held, out.pUp, out.pDown, 0, 0, 0, 0, 0, config) === RULE_EXIT;
    const side = held > 0 ? 1 : -1;
    const decision = {
      ...common,
      contributions: contributions(model, row, out, side),
    };
    return against
      ? { ...decision, action: 'exit', reasonCodes: ['exit_signal'] }
      : { ...decision, action: 'hold', reasonCodes: ['already_in_position'] };
  }

  // Flat: the side with the larger probability is the candidate
  const side = out.pUp >= out.pDown ? 1 : -1;
  const edgeLong = expectedEdge(model, config, out, 1, snapshot, index);
  const edgeShort = expectedEdge(model, config, out, -1, snapshot, index);
  const edge = side > 0 ? edgeLong : edgeShort;
  const ageHours = (input.now - model.trainedAt) / HOUR_MS;
  const rule = agentRule(
    0,
    out.pUp,
    out.pDown,
    out.predictionZ,
    out.dissimilarity,
    ageHours,
    edgeLong,
    edgeShort,
    config,
  );
  const failed = rule >> 2;
  const gates: AgentGateResult[] = [
    { gate: 'model_fresh', passed: (failed & FAIL_STALE) === 0, value: ageHours, limit: config.expiryHours },
    {
      gate: 'dissimilarity',
      passed: (failed & FAIL_DISSIMILAR) === 0,
      value: out.dissimilarity,
      limit: config.maxDissimilarity,
    },
    {
      gate: 'prediction_z',
      passed: (failed & FAIL_WEAK) === 0,
      value: side * out.predictionZ,
      limit: config.minPredictionZ,
    },
    { gate: 'edge', passed: (failed & FAIL_EDGE) === 0, value: edge, limit: 0 },
  ];
  const reasons: AgentReasonCode[] = [];
  if (failed & FAIL_THRESHOLD) reasons.push('below_threshold');
  if (failed & FAIL_STALE) reasons.push('model_stale');
  if (failed & FAIL_DISSIMILAR) reasons.push('dissimilar');
  if (failed & FAIL_WEAK) reasons.push('weak_prediction');
  if (failed & FAIL_EDGE) reasons.push('edge_below_costs');
  const decision = {
    ...common,
    expectedEdge: edge,
    gates,
    contributions: contributions(model, row, out, side),
  };
  if ((rule & 3) === RULE_HOLD) return { ...decision, action: 'hold', reasonCodes: reasons };
  const stopPct = config.stopAtr > 0 && atrPct > 0 ? config.stopAtr * atrPct : null;
  return {
    ...decision,
    action: side > 0 ? 'enter_long' : 'enter_short',
    sizeFraction: config.sizeFraction,
    stopPct,
    reasonCodes: [side > 0 ? 'signal_long' : 'signal_short'],
  };
}

export const RULE_HOLD = 0;
export const RULE_LONG = 1;
export const RULE_SHORT = 2;
export const RULE_EXIT = 3;
const FAIL_THRESHOLD = 1;
const FAIL_STALE = 2;
const FAIL_DISSIMILAR = 4;
const FAIL_WEAK = 8;
const FAIL_EDGE = 16;

/**
 * The decision rule itself, on plain numbers (the walk-forward evidence runs it on every test bar of every variant
 * without building records): returns the action (RULE_*) in the low two bits and the failed entry gates above them.
 * In a position: exit when the model leans the other way, else hold. Flat: the likelier side enters when its
 * probability reaches the threshold and every gate passes.
 */
export function agentRule(
  held: number,
  pUp: number,
  pDown: number,
  predictionZ: number,
  dissimilarity: number,
  ageHours: number,
  edgeLong: number,
  edgeShort: number,
  config: AgentConfig,
): number {
  if (held !== 0) return (held > 0 ? pDown > pUp : pUp > pDown) ? RULE_EXIT : RULE_HOLD;
  const long = pUp >= pDown;
  let failed = 0;
  if ((long ? pUp : pDown) < config.entryThreshold) failed |= FAIL_THRESHOLD;
  if (!(ageHours <= config.expiryHours)) failed |= FAIL_STALE;
  if (!(dissimilarity <= config.maxDissimilarity)) failed |= FAIL_DISSIMILAR;
  if (!((long ? predictionZ : -predictionZ) >= config.minPredictionZ)) failed |= FAIL_WEAK;
  if (!((long ? edgeLong : edgeShort) > 0)) failed |= FAIL_EDGE;
  if (failed !== 0) return RULE_HOLD | (failed << 2);
  return long ? RULE_LONG : RULE_SHORT;
}

/**
 * Expected return of the side over the horizon, net of the round trip and of the funding the position would pay
 * (positive funding: longs pay shorts), from the model's probabilities and the training rows' mean moves.
 */
export function expectedEdge(
  model: AgentModel,
  config: AgentConfig,
  out: Pick<ModelOutput, 'pUp' | 'pDown'>,
  side: 1 | -1,
  snapshot: AgentSnapshot,
  index: number,
): number {
  const gross =
    side > 0
      ? out.pUp * model.moves.up - out.pDown * model.moves.down
      : out.pDown * model.moves.down - out.pUp * model.moves.up;
  const rate = snapshot.aux.fundingRate?.[index];
  const funding =
    rate !== undefined && Number.isFinite(rate)
      ? side * rate * ((config.horizonBars * snapshot.intervalMs) / (FUNDING_HOURS * HOUR_MS))
      : 0;
  return gross - roundTripCost(config) - funding;
}

/** Coefficient × scaled value in the side's logit, largest magnitude first */
function contributions(
  model: AgentModel,
  row: Float64Array,
  out: ModelOutput,
  side: number,
): AgentFeatureContribution[] {
  const coefficients = side > 0 ? model.up.coefficients : model.down.coefficients;
  const list = AGENT_FEATURES.map((f, j) => {
    const value = row[j] as number;
    const scaled = out.scaled[j] as number;
    const coefficient = coefficients[j] as number;
    return {
      id: f.id,
      value: Number.isFinite(value) ? value : 0,
      scaled,
      coefficient,
      contribution: coefficient * scaled,
      available: Number.isFinite(value),
    };
  });
  return list.sort((a, b) => Math.abs(b.contribution) - Math.abs(a.contribution) || (a.id < b.id ? -1 : 1));
}

/**
 * Hash of what the decision read: the interval, the length and every column of the bars its features look at
 * (the last FEATURE_LOOKBACK + 1 bars), aux columns included.
 */
export function snapshotHash(snapshot: AgentSnapshot): string {
  const to = snapshot.length;
  const from = Math.max(0, to - FEATURE_LOOKBACK - 1);
  const h = new ContentHash().number(snapshot.intervalMs).number(to);
  const { bars, aux } = snapshot;
  h.numbers(bars.openTime, from, to).numbers(bars.open, from, to).numbers(bars.high, from, to);
  h.numbers(bars.low, from, to).numbers(bars.close, from, to).numbers(bars.volume, from, to);
  for (const key of ['fundingRate', 'openInterest', 'markPrice', 'indexPrice', 'btcClose'] as const) {
    const column = aux[key];
    h.string(key);
    if (column) h.numbers(column, from, Math.min(to, column.length));
    else h.number(-1);
  }
  return h.hex();
}
