import type { KlineInterval, TradingEnvironment } from '@kestrel/contracts';
import type {
  AgentDecisionRecord,
  AgentDecisionSummary,
  AgentHealth,
  PsiBand,
} from '@kestrel/contracts/agents';
import {
  type AgentDecision,
  FEATURE_LOOKBACK,
  type FeatureDrift,
  intervalToMs,
  modelHealth,
} from '@kestrel/engine';
import type { Clock } from '../../lib/clock';
import type { Database } from '../../lib/database/database';
import { HttpError } from '../../lib/http-error';
import type { BotRow } from '../bots/bot-repository';
import { agentDecisionRepository, summaryOf } from './agent-decision-repository';
import { agentRepository } from './agent-repository';
import { configOf, finiteOrNull } from './agent-rows';
import type { AgentSnapshots } from './agent-snapshot';

/** The engine's drift status in the contract's words for the usual PSI bands */
const PSI_BAND_OF: Record<FeatureDrift['status'], PsiBand | null> = {
  ok: 'stable',
  watch: 'moderate',
  drift: 'large',
  unavailable: null,
};

export interface AgentDecisionsDeps {
  db: Database;
  clock: Clock;
  /** Point-in-time snapshots of an environment's exchange (the market the agent trades in) */
  snapshots(environment: TradingEnvironment): Pick<AgentSnapshots, 'load'>;
  /** The user's agent (404 for an unknown id, another user's bot or a bot that is not an agent) */
  agent(userId: string, id: string): Promise<BotRow>;
}

/**
 * What an agent decided and how its model holds up: the decision records the runtime writes on every closed bar
 * (`agent-session.ts`), newest first, one in full, and the model's health (feature drift, calibration, hit rate,
 * dissimilarity) from its recent decisions against the market since
 */
export class AgentDecisions {
  constructor(private readonly deps: AgentDecisionsDeps) {}

  async decisions(userId: string, id: string, before: number | undefined, limit: number) {
    await this.row(userId, id);
    return (await agentDecisionRepository.decisions(this.deps.db, id, before, limit)).map((d) =>
      summaryOf(d.record),
    ) satisfies AgentDecisionSummary[];
  }

  async decision(userId: string, id: string, decisionId: string): Promise<AgentDecisionRecord> {
    await this.row(userId, id);
    const d = await agentDecisionRepository.decision(this.deps.db, id, decisionId);
    if (!d) throw new HttpError(404, 'DECISION_NOT_FOUND', 'No such decision of this agent');
    return d.record;
  }

  async health(userId: string, id: string): Promise<AgentHealth> {
    const row = await this.row(userId, id);
    const now = this.deps.clock.now();
    const model = await agentRepository.latestModel(this.deps.db, id);
    if (!model) {
      return {
        modelId: null,
        computedAt: now.getTime(),
        featureDrift: [],
        calibration: [],
        hitRate: { window: 0, value: null, count: 0 },
        diHistogram: [],
        raw: {},
      };
    }
    const config = configOf(row);
    const intervalMs = intervalToMs(row.interval as KlineInterval);
    const end = Math.floor(now.getTime() / intervalMs) * intervalMs;
    const recent = await agentDecisionRepository.decisions(this.deps.db, id, undefined, 500);
    const start = Math.min(
      end - 500 * intervalMs,
      (recent.at(-1)?.barTime ?? end) - FEATURE_LOOKBACK * intervalMs,
    );
    const h = modelHealth({
      model,
      snapshot: await this.deps
        .snapshots(row.environment)
        .load(row.symbol, row.interval, intervalMs, { start, end }),
      decisions: recent
        .filter((d) => d.record.modelId === model.id)
        .map((d) => engineDecision(d.record.decision))
        .reverse(),
      config,
    });
    const edges = h.dissimilarity.edges;
    return {
      modelId: model.id,
      computedAt: now.getTime(),
      featureDrift: h.drift.map((f) => ({
        id: f.id,
        psi: finiteOrNull(f.psi),
        zMean: finiteOrNull(f.meanShift),
        band: PSI_BAND_OF[f.status],
        drifted: f.status === 'drift',
      })),
      calibration: h.calibration.map((b) => ({
        from: b.from,
        to: b.to,
        predicted: b.meanPredicted ?? (b.from + b.to) / 2,
        observed: b.observed ?? 0,
        count: b.count,
      })),
      hitRate: { window: h.entries, value: h.hitRate, count: h.entries },
      diHistogram: h.dissimilarity.counts.map((count, i) => ({
        from: edges[i] ?? 0,
        to: edges[i + 1] ?? edges[i] ?? 0,
        count,
      })),
      raw: JSON.parse(JSON.stringify(h)) as Record<string, unknown>,
    };
  }

  private row(userId: string, id: string): Promise<BotRow> {
    return this.deps.agent(userId, id);
  }
}

/** A stored decision as the engine reads it: the figures JSON kept as null are NaN again */
function engineDecision(d: AgentDecisionRecord['decision']): AgentDecision {
  const nan = (v: number | null) => (v === null ? Number.NaN : v);
  return {
    ...d,
    action: d.action,
    reasonCodes: d.reasonCodes as AgentDecision['reasonCodes'],
    pUp: d.pUp,
    pDown: d.pDown,
    expectedEdge: d.expectedEdge,
    dissimilarity: d.dissimilarity,
    predictionZ: d.predictionZ,
    contributions: d.contributions.map((c) => ({ ...c, value: nan(c.value), scaled: nan(c.scaled) })),
    gates: d.gates.map((g) => ({
      gate: g.gate as AgentDecision['gates'][number]['gate'],
      passed: g.passed,
      value: nan(g.value),
      limit: nan(g.limit),
    })),
  };
}
