import { BarSeries } from '../bars/bars';
import { strategyType } from '../strategy/registry';
import { INTERFACE_VERSION, type Strategy, type StrategyContext } from '../strategy/strategy';
import { applyDecision, stopPriceFor } from './apply';
import { AgentConfigSchema, retrainBars } from './config';
import { decideAgent } from './decide';
import { AGENT_FEATURE_COUNT, FEATURE_LOOKBACK, writeFeatureRow } from './features';
import { labelBars } from './labels';
import { fitAgentModel } from './model';
import type { AgentConfig, AgentDecision, AgentModel, AgentSnapshot } from './types';

/** One retraining of the walk-forward backtest: which bars it used and the model it produced */
export interface AgentRetrain {
  /** Bar index it happened at (after that bar closed) and rows [from, to) it trained on */
  index: number;
  from: number;
  to: number;
  modelId: string;
}

/**
 * The agent as a strategy: every closed bar is appended to its own snapshot, the model is retrained walk-forward
 * every `retrainHours` of market time on the last `trainBars` rows whose labels have ended (no look-ahead: a row's
 * label must close by the current bar), and `decideAgent` → `applyDecision` trade exactly as the server's runtime
 * does. Features are computed once per bar and kept, so a retrain reads them instead of recomputing.
 */
export class MlAgent implements Strategy {
  private readonly series: BarSeries;
  private features = new Float64Array(0);
  private model: AgentModel | null = null;
  private lastTrainIndex = -1;
  private stopPrice: number | null = null;
  private readonly every: number;
  /** Every retrain and the last decision, for tests and reports */
  readonly retrains: AgentRetrain[] = [];
  lastDecision: AgentDecision | null = null;

  constructor(
    private readonly config: AgentConfig,
    intervalMs: number,
  ) {
    this.series = new BarSeries(intervalMs, 1024);
    this.every = retrainBars(config, intervalMs);
  }

  onBar(ctx: StrategyContext): void {
    const s = this.series;
    s.append(ctx.time, ctx.open(0), ctx.high(0), ctx.low(0), ctx.close(0), ctx.volume(0));
    const i = s.length - 1;
    const snapshot: AgentSnapshot = { intervalMs: s.intervalMs, bars: s, aux: {}, length: s.length };
    if (this.features.length < s.length * AGENT_FEATURE_COUNT) {
      const grown = new Float64Array(Math.max(1024, s.length * 2) * AGENT_FEATURE_COUNT);
      grown.set(this.features);
      this.features = grown;
    }
    writeFeatureRow(snapshot, i, this.features, i * AGENT_FEATURE_COUNT);
    const closeTime = ctx.time + ctx.intervalMs;
    if (this.model === null || i - this.lastTrainIndex >= this.every) this.retrain(i, closeTime);

    const broker = ctx.broker;
    const qty = broker.positionQty;
    // The stop set at the entry lives as long as the position does
    if (qty === 0) this.stopPrice = null;
    const decision = decideAgent({
      model: this.model,
      snapshot,
      config: this.config,
      position: { qty, entryPrice: qty !== 0 ? broker.entryPrice : null, stopPrice: this.stopPrice },
      now: closeTime,
    });
    this.lastDecision = decision;
    const price = ctx.price;
    const applied = applyDecision(broker, decision, {
      price,
      budget: broker.equityAt(price),
      leverage: broker.leverage,
    });
    if (
      (decision.action === 'enter_long' || decision.action === 'enter_short') &&
      applied.orders.length > 0
    ) {
      // The same level the resting stop order got (applyDecision prices it from the close)
      const side = decision.action === 'enter_long' ? 1 : -1;
      const stop = stopPriceFor(price, side, decision.stopPct);
      this.stopPrice = stop === null ? null : broker.roundPrice(stop);
    }
  }

  /** Trains on the last `trainBars` rows whose labels end by bar i, once there are that many */
  private retrain(i: number, closeTime: number): void {
    const h = this.config.horizonBars;
    const to = i - h + 1;
    const from = Math.max(FEATURE_LOOKBACK, to - this.config.trainBars);
    if (to - from < this.config.trainBars) return;
    const labels = labelBars(this.series.close, this.config, i + 1);
    const rows = new Int32Array(to - from);
    for (let r = 0; r < rows.length; r++) rows[r] = from + r;
    this.model = fitAgentModel({
      matrix: { data: this.features, rows: i + 1, cols: AGENT_FEATURE_COUNT, from: 0 },
      rows,
      labels,
      config: this.config,
      trainedAt: closeTime,
      openTime: this.series.openTime,
    });
    this.lastTrainIndex = i;
    this.retrains.push({ index: i, from, to, modelId: this.model.id });
  }
}

/** Bars before the first decision can be an entry: the lookback, a full training window and one horizon */
export function agentWarmupBars(config: AgentConfig): number {
  return FEATURE_LOOKBACK + config.trainBars + config.horizonBars;
}

export const mlAgentStrategy = strategyType({
  id: 'ml-agent',
  name: 'AI agent (ML)',
  description:
    'A logistic-regression model on ~25 market features, retrained walk-forward, entering only when every trust ' +
    'gate passes (fresh model, familiar market, strong prediction, edge above costs); every decision is explained.',
  interfaceVersion: INTERFACE_VERSION,
  params: AgentConfigSchema,
  warmupBars: agentWarmupBars,
  // The interval is not a param: the runner's bars carry it, so the agent learns it on its first bar
  create: (config) => new LazyIntervalAgent(config),
});

/** Defers building the agent to its first bar, where the bar interval is known */
class LazyIntervalAgent implements Strategy {
  private agent: MlAgent | null = null;
  constructor(private readonly config: AgentConfig) {}
  onBar(ctx: StrategyContext): void {
    if (this.agent === null) this.agent = new MlAgent(this.config, ctx.intervalMs);
    this.agent.onBar(ctx);
  }
}
