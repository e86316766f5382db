/**
 * The agent page's words: the engine's and the runtime's stable codes (reason codes, gates, stages, actions) as a
 * trader reads them. An unknown code (a newer server) is shown as itself rather than hidden.
 */

/** Why a decision is what it is (the engine's `AgentReasonCode`s, plus the runtime's own) */
const REASONS: Record<string, string> = {
  signal_long: 'Long signal',
  signal_short: 'Short signal',
  below_threshold: 'Below threshold',
  model_stale: 'Model too old',
  no_model: 'No model yet',
  dissimilar: 'Unlike training data',
  weak_prediction: 'Weak prediction',
  edge_below_costs: 'Edge below costs',
  already_in_position: 'Already in position',
  exit_signal: 'Exit signal',
  stop_hit: 'Stop hit',
  insufficient_history: 'Not enough history',
  vetoed: 'Vetoed by the reviewer',
  reviewer_veto: 'Vetoed by the reviewer',
  reviewer_reduced: 'Reduced by the reviewer',
  guard_refused: 'Refused by the risk guard',
  latched: 'Kill latch on',
  awaiting_approval: 'Waiting for your approval',
};

/** A sentence for the reason's tooltip / title, where the chip's two words are not enough */
const REASON_HINTS: Record<string, string> = {
  below_threshold: "The model's probability did not reach the entry threshold.",
  model_stale: 'The model is past its expiry: no new entries until it is retrained (exits still allowed).',
  no_model: 'The agent has not trained a model yet: no entries.',
  dissimilar: 'This bar looks unlike anything in the training data (dissimilarity index over its limit).',
  weak_prediction: "The prediction is too close to the model's usual output (z-score under its limit).",
  edge_below_costs: 'The expected move does not beat fees, slippage and funding.',
  insufficient_history: 'Too few closed bars to compute every feature.',
};

export const reasonLabel = (code: string): string => REASONS[code] ?? code.replaceAll('_', ' ');
export const reasonHint = (code: string): string | undefined => REASON_HINTS[code];

/** Reasons that mean "the agent wanted to act": drawn in the primary tone, holds in the muted one */
const ACTING = new Set(['signal_long', 'signal_short', 'exit_signal', 'stop_hit']);
export const isActingReason = (code: string) => ACTING.has(code);

const ACTIONS: Record<string, string> = {
  enter_long: 'Enter long',
  enter_short: 'Enter short',
  exit: 'Exit',
  hold: 'Hold',
};
export const actionLabel = (action: string): string => ACTIONS[action] ?? action.replaceAll('_', ' ');

const GATES: Record<string, { label: string; rule: string }> = {
  model_fresh: { label: 'Model fresh', rule: 'age (h) ≤ expiry (h)' },
  dissimilarity: { label: 'Dissimilarity', rule: 'DI ≤ limit' },
  prediction_z: { label: 'Prediction z-score', rule: '|z| ≥ limit' },
  edge: { label: 'Edge after costs', rule: 'expected edge > costs' },
};
export const gateLabel = (gate: string) => GATES[gate]?.label ?? gate.replaceAll('_', ' ');
export const gateRule = (gate: string) => GATES[gate]?.rule ?? '';

const STAGES: Record<string, string> = {
  backtest: 'Backtest',
  paper: 'Paper',
  live_approval: 'Live with approval',
  live_auto: 'Live, automatic',
};
export const stageLabel = (stage: string): string => STAGES[stage] ?? stage.replaceAll('_', ' ');

/** What each stage lets the agent do, said before a promotion */
const STAGE_HINTS: Record<string, string> = {
  backtest: 'Evaluated on history only: it places no orders, not even on paper.',
  paper: 'Trades on paper: simulated fills on live prices, no real orders.',
  live_approval: 'Proposes real orders; each one waits for your click and expires if you do not answer.',
  live_auto: 'Places real orders by itself, through the risk guard.',
};
export const stageHint = (stage: string): string => STAGE_HINTS[stage] ?? '';

/** "3.2 h", "45 min", "2 d 4 h": an age or a span given in hours */
export function hoursText(hours: number | null | undefined): string {
  if (hours === null || hours === undefined || !Number.isFinite(hours)) return '—';
  if (hours < 1) return `${Math.max(0, Math.round(hours * 60))} min`;
  if (hours <= 72) return `${hours < 10 ? hours.toFixed(1) : Math.round(hours)} h`;
  const d = Math.floor(hours / 24);
  return `${d} d ${Math.round(hours - d * 24)} h`;
}

/** "4:05" left of a time limit, or "expired" */
export function countdownText(msLeft: number): string {
  if (msLeft <= 0) return 'expired';
  const s = Math.ceil(msLeft / 1000);
  const m = Math.floor(s / 60);
  const h = Math.floor(m / 60);
  if (h > 0) return `${h} h ${String(m % 60).padStart(2, '0')} min`;
  return `${m}:${String(s % 60).padStart(2, '0')}`;
}

/** A probability as a percentage with one decimal ("61.3 %"), or a dash */
export function probabilityText(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return '—';
  return `${(p * 100).toFixed(1)} %`;
}

/** A figure of the evidence (Sharpe, PSR…) with fixed decimals, or a dash */
export function statText(v: number | null | undefined, digits = 2): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  return v.toFixed(digits);
}

const GUARD_CHECKS: Record<string, string> = {
  data_fresh: 'Data fresh',
  latch: 'Kill latch off',
  stage: 'Stage allows orders',
  max_notional: 'Max notional',
  daily_loss: 'Daily loss',
  drawdown: 'Drawdown',
  leverage_bracket: 'Leverage ≤ bracket',
  orders_per_minute: 'Orders per minute',
  price_vs_mark: 'Price near mark',
  exchange_filters: 'Exchange filters',
};
export const guardCheckLabel = (check: string) => GUARD_CHECKS[check] ?? check.replaceAll('_', ' ');

const OUTCOMES: Record<string, string> = {
  hold: 'Held',
  executed: 'Executed',
  refused: 'Refused by guard',
  vetoed: 'Vetoed',
  queued: 'Awaiting approval',
  approved: 'Approved',
  rejected: 'Rejected',
  expired: 'Expired',
  not_traded: 'Recorded only',
  failed: 'Failed',
};
export const outcomeLabel = (outcome: string) => OUTCOMES[outcome] ?? outcome.replaceAll('_', ' ');

const RISK_LINES: Record<string, { label: string; unit: string }> = {
  max_notional: { label: 'Notional', unit: 'USDT' },
  daily_loss: { label: 'Daily loss', unit: 'USDT' },
  drawdown: { label: 'Drawdown', unit: '%' },
  leverage: { label: 'Leverage', unit: '×' },
};
export const riskLineLabel = (name: string) => RISK_LINES[name]?.label ?? name.replaceAll('_', ' ');
export const riskLineUnit = (name: string) => RISK_LINES[name]?.unit ?? '';

const LATCH_CAUSES: Record<string, string> = {
  kill: 'Killed',
  risk_breach: 'Risk limit breached',
  guard: 'Stopped by the risk guard',
};
export const latchCauseLabel = (cause: string) => LATCH_CAUSES[cause] ?? cause.replaceAll('_', ' ');
