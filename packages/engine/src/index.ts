// Core, browser-safe: no I/O, no clock, no Math.random. Worker-thread runners live in '@kestrel/engine/node'

export type { AppliedDecision, ApplyOptions } from './agent/apply';
export { AGENT_ORDER_TAGS, applyDecision, stopPriceFor } from './agent/apply';
export { AgentConfigSchema, parseAgentConfig, retrainBars, roundTripCost } from './agent/config';
export type { DecideInput } from './agent/decide';
export { agentRule, decideAgent, expectedEdge, snapshotHash } from './agent/decide';
export type {
  AgentCvFold,
  AgentEvidence,
  AgentEvidenceCurves,
  AgentEvidenceFold,
  AgentEvidenceGate,
  AgentEvidenceInput,
  AgentEvidenceVariant,
} from './agent/evidence';
export { AGENT_EVIDENCE_GATES, agentEvidence } from './agent/evidence';
export type { FeatureMatrix } from './agent/features';
export {
  AGENT_FEATURE_COUNT,
  AGENT_FEATURE_IDS,
  AGENT_FEATURES,
  FEATURE_LOOKBACK,
  featureMatrix,
  featureRow,
} from './agent/features';
export type { CalibrationBucket, FeatureDrift, ModelHealth, ModelHealthInput } from './agent/health';
export { modelHealth, PSI_BANDS } from './agent/health';
export type { AgentLabels } from './agent/labels';
export { labelBars } from './agent/labels';
export type { ModelOutput, TrainAgentInput } from './agent/model';
export { applyModel, MIN_TRAINING_ROWS, trainAgentModel } from './agent/model';
export type { AgentRetrain } from './agent/strategy';
export { agentWarmupBars, MlAgent, mlAgentStrategy } from './agent/strategy';
export type {
  AgentAction,
  AgentAuxColumns,
  AgentConfig,
  AgentDecision,
  AgentFeatureContribution,
  AgentFeatureSpec,
  AgentGateResult,
  AgentModel,
  AgentPositionView,
  AgentReasonCode,
  AgentSnapshot,
} from './agent/types';
export type { AgentWorldOptions } from './agent/worlds';
export { agentWorld } from './agent/worlds';
export type { LookaheadReport } from './backtest/lookahead';
export { lookaheadCheck } from './backtest/lookahead';
export type { Metrics, MetricsInput, TradeStats } from './backtest/metrics';
export { computeMetrics, tradeStats } from './backtest/metrics';
export { whyNoTrade } from './backtest/no-trade';
export type { BacktestOptions, BacktestResult, LiveStep, RunSettings } from './backtest/runner';
export { LiveSession, resolveBrokerConfig, runBacktest, StrategyRunner } from './backtest/runner';
export type { BarColumns, KlineRow, SyntheticBarsOptions } from './bars/bars';
export { BarSeries, barsFromKlines, generateBars } from './bars/bars';
export {
  barOpenAtOrAfter,
  barOpenTime,
  countBars,
  intervalToMs,
  isCalendarInterval,
  MONTH_NOMINAL_MS,
  nextBarOpenTime,
} from './bars/intervals';
export type { BrokerConfig, BrokerSettingsInput, FundingRates } from './broker/config';
export { BrokerSettingsSchema, brokerConfig } from './broker/config';
export type { OrderPort } from './broker/order-port';
export type {
  Fill,
  OrderRequest,
  OrderSide,
  OrderStatus,
  OrderType,
  OrderView,
  Trade,
} from './broker/orders';
export { SimBroker } from './broker/sim-broker';
export { EngineInputError, StrategyError } from './errors';
export type { LeverageBracket } from './futures/brackets';
export {
  BTCUSDT_BRACKETS,
  bracketFor,
  buildBrackets,
  maintenanceMargin,
  maxNotionalAt,
  parseLeverageBrackets,
} from './futures/brackets';
export { DEFAULT_FUNDING_INTERVAL_HOURS, fundingFee, nextFundingTime } from './futures/funding';
export type { LiquidationInput } from './futures/liquidation';
export { liquidationPrice } from './futures/liquidation';
export { Ema, emaBatch } from './indicators/average/ema/ema';
export { Sma, smaBatch } from './indicators/average/sma/sma';
export type { BarInput, Indicator } from './indicators/indicator';
export { Rsi, rsiBatch } from './indicators/momentum/rsi/rsi';
export type { MacdColumns, MacdResult } from './indicators/trend/macd/macd';
export { Macd, macdBatch } from './indicators/trend/macd/macd';
export { Atr, atrBatch } from './indicators/volatility/atr/atr';
export type { BollingerColumns, BollingerResult } from './indicators/volatility/bollinger/bollinger';
export { Bollinger, bollingerBatch } from './indicators/volatility/bollinger/bollinger';
export { Vwap, vwapBatch } from './indicators/volume/vwap/vwap';
export { roundMoney, roundToStep, stepDecimals } from './math/rounding';
export type {
  DeflatedSharpe,
  PboOptions,
  PboReport,
  RandomEntryOptions,
  RandomEntryReport,
  ReturnMoments,
} from './optimise/overfitting';
export {
  deflatedSharpe,
  expectedMaxSharpe,
  normalCdf,
  normalQuantile,
  periodReturns,
  probabilisticSharpe,
  probabilityOfOverfitting,
  randomEntryBaseline,
  returnMoments,
  statsPeriodBars,
} from './optimise/overfitting';
export type { OverfittingReport, OverfittingReportOptions } from './optimise/overfitting-report';
export { OVERFITTING_GATES, overfittingReport } from './optimise/overfitting-report';
export type { Objective, ParamSpace, SweepResult, SweepScratch } from './optimise/sweep';
export {
  expandGrid,
  OBJECTIVES,
  rankResults,
  runCombos,
  runSweep,
  score,
  sweepScratch,
} from './optimise/sweep';
export type {
  SweepFn,
  SweepWindow,
  WalkForwardOptions,
  WalkForwardReport,
  WalkForwardStep,
  WalkForwardWindow,
} from './optimise/walk-forward';
export { walkForward, walkForwardWindows } from './optimise/walk-forward';
export type { Random } from './random/prng';
export { createRandom } from './random/prng';
export { builtInStrategies, getBuiltInStrategy, strategyCatalogue } from './strategies/built-in';
export { DcaParamsSchema, safetyOrderPlan } from './strategies/dca/params';
export { dcaStrategy } from './strategies/dca/strategy';
export { EmaCrossParamsSchema } from './strategies/ema-cross/params';
export { emaCrossStrategy } from './strategies/ema-cross/strategy';
export { GridParamsSchema, gridLevels } from './strategies/grid/params';
export { gridStrategy } from './strategies/grid/strategy';
export type { Condition, Operand } from './strategies/signal-rules/params';
export {
  ConditionSchema,
  OperandSchema,
  RULE_INDICATORS,
  SignalRulesParamsSchema,
} from './strategies/signal-rules/params';
export { signalRulesStrategy } from './strategies/signal-rules/strategy';
export type { WebhookSignalParams } from './strategies/webhook-signal/params';
export { WebhookSignalParamsSchema } from './strategies/webhook-signal/params';
export { webhookSignalStrategy } from './strategies/webhook-signal/strategy';
export { BarContext } from './strategy/bar-context';
export { GuardedStrategy } from './strategy/guarded-strategy';
export type {
  FeeRates,
  LevelProfit,
  PlanFigures,
  PlanMarket,
  PlannedOrder,
  PlanProblem,
  RoundedOrder,
  RoundTripAt,
  SymbolRules,
} from './strategy/order-plan';
export { checkOrderPlan, planFigures, smallestQuantity } from './strategy/order-plan';
export { paramLabel } from './strategy/param-label';
export type { StrategyType } from './strategy/registry';
export { strategyType } from './strategy/registry';
export type {
  BacktestFastPath,
  FusedRun,
  PositionSide,
  PrepareCache,
  Strategy,
  StrategyContext,
  StrategyDefinition,
  StrategyInstance,
  TradeSignal,
} from './strategy/strategy';
export { hasBacktestFastPath, INTERFACE_VERSION } from './strategy/strategy';
export { StrategyDriver } from './strategy/strategy-driver';
