import { z } from 'zod';
import { BotOrderSchema, BotSchema } from '../bots/bots';
import { okResponse } from '../common/error-response';
import { ms } from '../common/fields';

/**
 * AI agents (issue 18): an agent is a bot whose strategy is `ml-agent` (kind `agent`), so it has the bot's settings,
 * lease, start/stop, paper/live, environment, limits and log (`/api/v1/agents/{id}` and friends). These are the
 * agent's own calls, under `/api/v1/agents/{id}/…`: its status (stage, latch, model, training), the decision record
 * of every closed bar (holds included), evidence, model health, stages and the approval queue.
 *
 * The decision's shape mirrors the engine's `AgentDecision` (packages/engine/src/agent/types.ts): the page reads it
 * without importing the engine. Figures are numbers (the server computes them); times are ms since the epoch.
 */

/**
 * backtest → paper → live_approval (each proposal waits for the owner's click, with a time limit) → live_auto.
 * A promotion is refused unless its gates pass (the answer names the failing ones); a demotion always passes.
 */
export const AGENT_STAGES = ['backtest', 'paper', 'live_approval', 'live_auto'] as const;
export const AgentStageSchema = z.enum(AGENT_STAGES, {
  error: `stage must be one of ${AGENT_STAGES.join(', ')}`,
});
export type AgentStage = z.infer<typeof AgentStageSchema>;

export const AGENT_ACTIONS = ['enter_long', 'enter_short', 'exit', 'hold'] as const;
export const AgentActionSchema = z.enum(AGENT_ACTIONS);
export type AgentActionName = z.infer<typeof AgentActionSchema>;

/** The engine's reason codes (a string so a newer engine's code still reads; the page words the known ones) */
export const AGENT_REASON_CODES = [
  'signal_long',
  'signal_short',
  'below_threshold',
  'model_stale',
  'no_model',
  'dissimilar',
  'weak_prediction',
  'edge_below_costs',
  'already_in_position',
  'exit_signal',
  'stop_hit',
  'insufficient_history',
] as const;

/**
 * Why the agent is latched: a person must reset it (`POST …/latch/reset`) before it may run again. Kept in the
 * database, so it survives restarts. `kill`: the owner's kill; `risk_breach`: a limit was breached; `guard`: the risk
 * guard stopped it (e.g. repeated stale data).
 */
export const AGENT_LATCH_CAUSES = ['kill', 'risk_breach', 'guard'] as const;
export const AgentLatchCauseSchema = z.enum(AGENT_LATCH_CAUSES);
export const AgentLatchSchema = z.object({
  cause: AgentLatchCauseSchema,
  /** In words ("Killed by you", "Daily loss limit reached: -52.10 USDT of 50") */
  reason: z.string(),
  latchedAt: ms,
  /** The stage it was in before the latch demoted it to paper */
  fromStage: AgentStageSchema,
});
export type AgentLatch = z.infer<typeof AgentLatchSchema>;

/** In-sample figures of a model: never the headline, shown greyed */
export const AgentInSampleSchema = z.object({
  accuracy: z.number(),
  logLoss: z.number(),
  up: z.number(),
  flat: z.number(),
  down: z.number(),
});

/** The agent's current model */
export const AgentModelInfoSchema = z.object({
  id: z.string(),
  /** Market time the model was trained at, and its training window (open times of first and last bar) */
  trainedAt: ms,
  trainedFrom: ms,
  trainedTo: ms,
  ageHours: z.number(),
  /** Past this age no new entries are allowed (exits still are) */
  expiryHours: z.number(),
  stale: z.boolean(),
  /** When the next scheduled retrain is due (null while the agent is not running) */
  nextRetrainAt: ms.nullable(),
  rows: z.number().int(),
  featureIds: z.array(z.string()),
  inSample: AgentInSampleSchema,
});
export type AgentModelInfo = z.infer<typeof AgentModelInfoSchema>;

export const AGENT_TRAINING_STATES = ['idle', 'training', 'failed'] as const;
export const AgentTrainingStateSchema = z.enum(AGENT_TRAINING_STATES);
export const AgentTrainingSchema = z.object({
  state: AgentTrainingStateSchema,
  /** Why the last training failed, in words; null when it did not */
  lastError: z.string().nullable(),
  /** When the running (or last) training started and finished */
  startedAt: ms.nullable(),
  finishedAt: ms.nullable(),
});
export type AgentTraining = z.infer<typeof AgentTrainingSchema>;

/**
 * What became of a decision: `hold` (nothing to do), `executed` (orders sent), `refused` (the risk guard said no),
 * `vetoed` (the LLM reviewer said no), `queued` (waiting for the owner's approval), `approved`/`rejected`/`expired`
 * (what became of a queued one), `not_traded` (stage backtest: recorded only), `failed` (the order path failed).
 */
export const AGENT_DECISION_OUTCOMES = [
  'hold',
  'executed',
  'refused',
  'vetoed',
  'queued',
  'approved',
  'rejected',
  'expired',
  'not_traded',
  'failed',
] as const;
export const AgentDecisionOutcomeSchema = z.enum(AGENT_DECISION_OUTCOMES);
export type AgentDecisionOutcome = z.infer<typeof AgentDecisionOutcomeSchema>;

/** One line of the decision timeline */
export const AgentDecisionSummarySchema = z.object({
  id: z.string(),
  agentId: z.uuid(),
  /** Open time of the bar that closed */
  barTime: ms,
  /** When the record was written */
  time: ms,
  action: AgentActionSchema,
  outcome: AgentDecisionOutcomeSchema,
  reasonCodes: z.array(z.string()),
  sizeFraction: z.number(),
  pUp: z.number().nullable(),
  pDown: z.number().nullable(),
  threshold: z.number(),
  modelId: z.string().nullable(),
  stage: AgentStageSchema,
  /** The reviewer's verdict, null when no reviewer is configured or it was not asked (exits, holds) */
  reviewVerdict: z.enum(['approve', 'reduce', 'veto']).nullable(),
  /** One sentence: what happened and why */
  note: z.string(),
});
export type AgentDecisionSummary = z.infer<typeof AgentDecisionSummarySchema>;

export const AgentFeatureContributionSchema = z.object({
  id: z.string(),
  value: z.number().nullable(),
  scaled: z.number().nullable(),
  coefficient: z.number(),
  contribution: z.number(),
  available: z.boolean(),
});

export const AgentGateResultSchema = z.object({
  gate: z.string(),
  passed: z.boolean(),
  value: z.number().nullable(),
  limit: z.number().nullable(),
});

/** The engine's decision at one closed bar, before the reviewer and the risk guard */
export const AgentDecisionSchema = z.object({
  barTime: ms,
  action: AgentActionSchema,
  sizeFraction: z.number(),
  stopPct: z.number().nullable(),
  reasonCodes: z.array(z.string()),
  modelId: z.string().nullable(),
  modelAgeHours: z.number().nullable(),
  pUp: z.number().nullable(),
  pDown: z.number().nullable(),
  threshold: z.number(),
  expectedEdge: z.number().nullable(),
  dissimilarity: z.number().nullable(),
  predictionZ: z.number().nullable(),
  contributions: z.array(AgentFeatureContributionSchema),
  gates: z.array(AgentGateResultSchema),
  snapshotHash: z.string(),
});
export type AgentDecisionView = z.infer<typeof AgentDecisionSchema>;

/** The LLM reviewer's answer (the agent-llm part; null when none is configured) */
export const AgentReviewSchema = z.object({
  verdict: z.enum(['approve', 'reduce', 'veto']),
  sizeMultiplier: z.number(),
  rationale: z.string(),
  citedFeatures: z.array(z.string()),
  model: z.string(),
  latencyMs: z.number(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  error: z.string().nullable(),
  /** The kept prompt and reply (GET /api/v1/agents/{id}/llm/exchanges) */
  exchangeId: z.string(),
});
export type AgentReviewView = z.infer<typeof AgentReviewSchema>;

/**
 * The risk guard's checks, in order. Each is recorded with the figure before and after the proposed order and its
 * limit; a check that cannot be evaluated fails (fail-closed). An exit (an order that only moves the position toward
 * flat) is never refused: its checks are recorded as measured, and pass.
 */
export const AGENT_GUARD_CHECKS = [
  'data_fresh',
  'latch',
  'stage',
  'max_notional',
  'daily_loss',
  'drawdown',
  'leverage_bracket',
  'orders_per_minute',
  'price_vs_mark',
  'exchange_filters',
] as const;
export const AgentGuardCheckNameSchema = z.enum(AGENT_GUARD_CHECKS);
export type AgentGuardCheckName = z.infer<typeof AgentGuardCheckNameSchema>;

export const AgentGuardCheckSchema = z.object({
  check: AgentGuardCheckNameSchema,
  passed: z.boolean(),
  /** The figure now and after the proposed order (null when it does not apply) */
  before: z.number().nullable(),
  after: z.number().nullable(),
  limit: z.number().nullable(),
  /** In words: "Notional after the order 1,250.00 USDT of 1,000 allowed" */
  detail: z.string(),
});
export type AgentGuardCheck = z.infer<typeof AgentGuardCheckSchema>;

export const AgentGuardResultSchema = z.object({
  passed: z.boolean(),
  /** The order only moves the position toward flat: an exit, which the guard never refuses */
  exit: z.boolean(),
  /** The order as it would be sent: signed quantity change and price (null for holds) */
  proposedQty: z.number().nullable(),
  price: z.number().nullable(),
  checks: z.array(AgentGuardCheckSchema),
});
export type AgentGuardResult = z.infer<typeof AgentGuardResultSchema>;

export const AgentFillSchema = z.object({
  clientOrderId: z.string(),
  side: z.enum(['BUY', 'SELL']),
  price: z.number(),
  quantity: z.number(),
  fee: z.number(),
  time: ms,
});

/** GET /api/v1/agents/{id}/decisions/{decisionId}: everything about one closed bar */
export const AgentDecisionRecordSchema = AgentDecisionSummarySchema.extend({
  decision: AgentDecisionSchema,
  review: AgentReviewSchema.nullable(),
  /** null for holds (nothing proposed) */
  guard: AgentGuardResultSchema.nullable(),
  orders: z.array(BotOrderSchema),
  fills: z.array(AgentFillSchema),
  /** The agent's position when the bar closed (signed quantity) */
  positionQty: z.number(),
  price: z.number().nullable(),
});
export type AgentDecisionRecord = z.infer<typeof AgentDecisionRecordSchema>;

/** One of the agent's limits against its figure now */
export const AgentRiskLineSchema = z.object({
  name: z.enum(['max_notional', 'daily_loss', 'drawdown', 'leverage']),
  limit: z.number().nullable(),
  current: z.number(),
  usedPercent: z.number().nullable(),
  breached: z.boolean(),
});
export type AgentRiskLine = z.infer<typeof AgentRiskLineSchema>;

/** A promotion gate: what it measures, its figure and the bar it must clear */
export const AgentPromotionGateSchema = z.object({
  id: z.string(),
  /** In words: "Deflated Sharpe ratio ≥ 0.95" */
  label: z.string(),
  passed: z.boolean(),
  value: z.number().nullable(),
  limit: z.number().nullable(),
});
export type AgentPromotionGate = z.infer<typeof AgentPromotionGateSchema>;

/** GET /api/v1/agents/{id}/agent */
export const AgentStatusSchema = z.object({
  bot: BotSchema,
  stage: AgentStageSchema,
  /** null when not latched */
  latch: AgentLatchSchema.nullable(),
  model: AgentModelInfoSchema.nullable(),
  training: AgentTrainingSchema,
  lastDecision: AgentDecisionSummarySchema.nullable(),
  /** Signed position quantity of the agent now */
  positionQty: z.number(),
  risk: z.array(AgentRiskLineSchema),
  /** The next stage up and the gates it needs (null at live_auto) */
  promotion: z
    .object({ to: AgentStageSchema, allowed: z.boolean(), gates: z.array(AgentPromotionGateSchema) })
    .nullable(),
  /** Proposals waiting for the owner */
  pendingApprovals: z.number().int(),
});
export type AgentStatus = z.infer<typeof AgentStatusSchema>;

export const AgentDecisionsQuerySchema = z.object({
  /** Only decisions of bars opened before this time (ms), for paging */
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce
    .number()
    .int()
    .min(1, 'limit must be at least 1')
    .max(500, 'limit must be at most 500')
    .default(100),
});

export const AgentDecisionParamsSchema = z.object({
  id: z.uuid('id must be an agent id (a UUID)'),
  decisionId: z.string().regex(/^\d{1,18}$/, 'decisionId must be a decision id'),
});

/** POST /api/v1/agents/{id}/stage */
export const AgentStageRequestSchema = z.strictObject({ stage: AgentStageSchema });
export const AgentStageResultSchema = z.object({
  stage: AgentStageSchema,
  gates: z.array(AgentPromotionGateSchema),
});

export const AGENT_APPROVAL_STATES = ['pending', 'approved', 'rejected', 'expired', 'failed'] as const;
export const AgentApprovalStateSchema = z.enum(AGENT_APPROVAL_STATES);

/** A proposal of stage live_approval: executed only after the owner's click, still through the risk guard */
export const AgentApprovalSchema = z.object({
  id: z.string(),
  agentId: z.uuid(),
  decisionId: z.string(),
  action: AgentActionSchema,
  sizeFraction: z.number(),
  state: AgentApprovalStateSchema,
  createdAt: ms,
  expiresAt: ms,
  decidedAt: ms.nullable(),
  /** What happened when it was decided (the guard's refusal, the order sent, "expired unanswered") */
  note: z.string().nullable(),
});
export type AgentApproval = z.infer<typeof AgentApprovalSchema>;

export const AgentApprovalParamsSchema = z.object({
  id: z.uuid('id must be an agent id (a UUID)'),
  approvalId: z.string().regex(/^\d{1,18}$/, 'approvalId must be an approval id'),
});

/** A curve of the evidence (equity, starting at 1) */
export const AgentCurvePointSchema = z.object({ time: ms, value: z.number() });

export const AgentEvidenceFoldSchema = z.object({
  fold: z.number().int(),
  trainFrom: ms,
  trainTo: ms,
  testFrom: ms,
  testTo: ms,
  trades: z.number().int(),
  returnPct: z.number(),
  sharpe: z.number().nullable(),
  /** The same window's in-sample Sharpe (for the retention gate) */
  inSampleSharpe: z.number().nullable(),
});

/**
 * GET /api/v1/agents/{id}/evidence: the last walk-forward evidence (the engine's `agentEvidence`), the trial registry's
 * N (every configuration trained or evaluated for this agent's owner, symbol and interval) and the paper-vs-backtest
 * drift. `report` null until evidence has been computed (training computes it).
 */
export const AgentEvidenceSchema = z.object({
  report: z
    .object({
      computedAt: ms,
      /** Stitched out-of-sample equity, buy-and-hold and the seeded random-entry baseline */
      oosEquity: z.array(AgentCurvePointSchema),
      buyAndHold: z.array(AgentCurvePointSchema),
      randomEntry: z.array(AgentCurvePointSchema),
      folds: z.array(AgentEvidenceFoldSchema),
      /** Purged k-fold CV (embargo 1%): per-fold score and mean */
      cv: z.object({ folds: z.array(z.number()), mean: z.number().nullable(), embargoPct: z.number() }),
      psr: z.number().nullable(),
      dsr: z.number().nullable(),
      pbo: z.number().nullable(),
      /** Inputs behind PSR/DSR/PBO: observations, skew, kurtosis, Sharpe, trials' Sharpe variance */
      inputs: z.record(z.string(), z.number().nullable()),
      /** Costs itemised over the out-of-sample period, USDT per unit budget */
      costs: z.record(z.string(), z.number()),
      gates: z.array(AgentPromotionGateSchema),
      passed: z.boolean(),
      /** The engine's report as it was computed (fields the page does not word yet) */
      raw: z.record(z.string(), z.unknown()),
    })
    .nullable(),
  /** Why the last training computed no report (too little history for walk-forward folds…), else null */
  reportError: z.string().nullable(),
  /** N for the deflated Sharpe: configurations in the registry */
  trials: z.number().int(),
  /** Paper trading against the backtest of the same period: null until the agent has traded on paper */
  paperDrift: z
    .object({
      from: ms,
      to: ms,
      paperReturnPct: z.number(),
      backtestReturnPct: z.number(),
      trades: z.number().int(),
    })
    .nullable(),
});
export type AgentEvidence = z.infer<typeof AgentEvidenceSchema>;

/** A population stability index read by the usual bands (the engine's `PSI_BANDS`): stable, moderate, large */
export const PsiBandSchema = z.enum(['stable', 'moderate', 'large']);
export type PsiBand = z.infer<typeof PsiBandSchema>;

/** GET /api/v1/agents/{id}/health: the model against the market it now sees */
export const AgentHealthSchema = z.object({
  modelId: z.string().nullable(),
  computedAt: ms,
  /**
   * Per feature: PSI and z of the recent mean against training. `band` is the usual PSI rule (below 0.1 stable,
   * 0.1 to 0.25 moderate, 0.25 and above large; null when the feature has no recent value); `drifted` is a large shift
   */
  featureDrift: z.array(
    z.object({
      id: z.string(),
      psi: z.number().nullable(),
      zMean: z.number().nullable(),
      band: PsiBandSchema.nullable(),
      drifted: z.boolean(),
    }),
  ),
  /** Predicted probability buckets against the observed frequency */
  calibration: z.array(
    z.object({
      from: z.number(),
      to: z.number(),
      predicted: z.number(),
      observed: z.number(),
      count: z.number().int(),
    }),
  ),
  /** Share of resolved entry decisions whose direction was right, over the last `window` of them */
  hitRate: z.object({ window: z.number().int(), value: z.number().nullable(), count: z.number().int() }),
  /** Dissimilarity index of recent decisions */
  diHistogram: z.array(z.object({ from: z.number(), to: z.number(), count: z.number().int() })),
  /** The engine's figures as computed (fields the page does not word yet) */
  raw: z.record(z.string(), z.unknown()),
});
export type AgentHealth = z.infer<typeof AgentHealthSchema>;

/** The live push to the owner's socket: `notifications/bot` with `type: 'agent_decision'` and the summary */
export const AGENT_DECISION_NOTICE_TYPE = 'agent_decision';
export const AgentDecisionNoticeSchema = z.object({
  botId: z.uuid(),
  type: z.literal(AGENT_DECISION_NOTICE_TYPE),
  time: ms,
  decision: AgentDecisionSummarySchema,
});
export type AgentDecisionNotice = z.infer<typeof AgentDecisionNoticeSchema>;

export const AgentStatusResponseSchema = okResponse(AgentStatusSchema);
export const AgentDecisionsResponseSchema = okResponse(z.array(AgentDecisionSummarySchema));
export const AgentDecisionRecordResponseSchema = okResponse(AgentDecisionRecordSchema);
export const AgentTrainingResponseSchema = okResponse(AgentTrainingSchema);
export const AgentEvidenceResponseSchema = okResponse(AgentEvidenceSchema);
export const AgentHealthResponseSchema = okResponse(AgentHealthSchema);
export const AgentStageResponseSchema = okResponse(AgentStageResultSchema);
export const AgentApprovalsResponseSchema = okResponse(z.array(AgentApprovalSchema));
export const AgentApprovalResponseSchema = okResponse(AgentApprovalSchema);
