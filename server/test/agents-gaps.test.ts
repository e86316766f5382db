import type { AgentEvidence, AgentStatus } from '@kestrel/contracts/agents';
import type { Bot } from '@kestrel/contracts/bots';
import { intervalToMs } from '@kestrel/engine';
import { beforeAll, describe, expect, it } from 'vitest';
import { KlineCache } from '../src/core/market-data/kline-cache';
import { klineRepository } from '../src/core/market-data/kline-repository';
import { agentDecisionRepository } from '../src/trading/agents/agent-decision-repository';
import { AgentSessionRuntime } from '../src/trading/agents/agent-session';
import { AgentSnapshots } from '../src/trading/agents/agent-snapshot';
import { type BotRow, botRepository } from '../src/trading/bots/bot-repository';
import type { PaperFigures } from '../src/trading/bots/bot-step';
import { bearer, signUp } from './helper';
import { inProcessAgentTrainer } from './in-process-trainer';
import { useSimBots } from './sim-bots';

/**
 * Gaps a trader would meet with the agents as first merged: a default agent (the create form's 1h, every setting
 * defaulted) gets walk-forward evidence on the simulator's history with its gates evaluated; a position's stop is
 * kept by the records, not only by replaying the entry; the status's drawdown is measured from the equity peak.
 */
describe('agents: what a trader meets', () => {
  const { t, clock } = useSimBots({
    // A default agent trains on 5,000 bars: at 1h that is ~208 days, and its evidence needs folds after them
    historyDays: 320,
    deps: { agentTrainer: inProcessAgentTrainer },
  });
  let token: string;

  beforeAll(async () => {
    token = (await signUp(t)).access_token;
  });

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.request({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

  async function create(body: Record<string, unknown> = {}): Promise<Bot> {
    const res = await call('POST', '/api/v1/agents/', {
      name: 'Default agent',
      strategy: 'ml-agent',
      params: {},
      symbol: 'BTCUSDT',
      interval: '1h',
      leverage: 2,
      budget: 1000,
      mode: 'paper',
      ...body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data;
  }

  it('a default agent gets walk-forward evidence on the simulator, its gates evaluated with their inputs', async () => {
    const agent = await create();
    expect((await call('POST', `/api/v1/agents/${agent.id}/train`)).statusCode).toBe(202);
    await t.app.agentService.idle();
    const s: AgentStatus = (await call('GET', `/api/v1/agents/${agent.id}/agent`)).json().data;
    expect(s.training).toMatchObject({ state: 'idle', lastError: null });
    expect(s.model?.rows).toBeGreaterThan(4000);

    const evidence: AgentEvidence = (await call('GET', `/api/v1/agents/${agent.id}/evidence`)).json().data;
    expect(evidence.reportError).toBeNull();
    const report = evidence.report;
    expect(report).not.toBeNull();
    // Out of sample for weeks, not days: a verdict on 8 days of hourly bars would be noise
    const oos = report?.oosEquity ?? [];
    const span = (oos.at(-1)?.time ?? 0) - (oos[0]?.time ?? 0);
    expect(span).toBeGreaterThanOrEqual(60 * 86_400_000);
    expect(report?.buyAndHold.length).toBe(oos.length);
    expect(report?.randomEntry.length).toBe(oos.length);
    expect(report?.folds.length).toBeGreaterThan(8);
    expect(report?.gates.map((g) => g.id).sort()).toEqual(['dsr', 'pbo', 'random_entry', 'retention']);
    for (const g of report?.gates ?? []) expect(g.label).toMatch(/\(.+\)/);
    // The promotion states the evidence gates (it is not held back for want of evidence)
    const after: AgentStatus = (await call('GET', `/api/v1/agents/${agent.id}/agent`)).json().data;
    const gate = after.promotion?.gates.find((g) => g.id === 'evidence');
    expect(gate?.passed).toBe(true);
    expect(after.promotion?.gates.some((g) => g.id === 'evidence_dsr')).toBe(true);
  }, 180_000);

  async function rowOf(id: string): Promise<BotRow> {
    const owner = (
      await t.app.db.query<{ user_id: string }>('SELECT user_id FROM bots WHERE id = $1', [id])
    )[0];
    const row = await botRepository.find(t.app.db, owner?.user_id ?? '', id);
    if (!row) throw new Error('the agent is gone');
    return row;
  }

  /** A figures object of an open paper session (what the account would answer) */
  const figures = (f: Partial<PaperFigures>): PaperFigures => ({
    realizedPnl: 0,
    unrealizedPnl: 0,
    todayPnl: 0,
    positionQty: 0,
    entryPrice: null,
    markPrice: null,
    equity: 1000,
    peakEquity: 1000,
    openOrders: [],
    ...f,
  });

  it('keeps a position’s stop from its entry’s record when the session did not replay the entry', async () => {
    const agent = await create({
      name: 'Stop keeper',
      interval: '1m',
      params: { trainBars: 300, horizonBars: 5 },
    });
    const row = await rowOf(agent.id);
    const intervalMs = intervalToMs('1m');
    const market = t.app.exchangeRouter.marketFor(row.environment);
    const klines = new KlineCache(t.app.db, klineRepository, market);
    const snapshots = new AgentSnapshots({
      exchange: market,
      exchangeEnv: 'agents-gaps',
      loadBars: (key, span) => klines.load(key, span),
      logger: t.app.log,
    });
    // The bar that closed last, as the simulator has it
    const open = Math.floor(clock.now().getTime() / intervalMs) * intervalMs - intervalMs;
    const bars = await klines.load(
      { env: 'agents-gaps', symbol: 'BTCUSDT', interval: '1m' },
      { start: open, end: open + intervalMs },
    );
    const bar = {
      openTime: open,
      open: bars.open[0] as number,
      high: bars.high[0] as number,
      low: bars.low[0] as number,
      close: bars.close[0] as number,
      volume: bars.volume[0] as number,
    };
    // A long entered five bars before (by a session before this one) with a 1 % stop above this bar's high
    const entryPrice = bar.high * 1.05;
    const entered = await agentDecisionRepository.insertDecision(t.app.db, {
      botId: row.id,
      userId: row.user_id,
      executed: { action: 'enter_long', sizeFraction: 0.25, stopPct: 0.01 },
      record: {
        agentId: row.id,
        barTime: open - 5 * intervalMs,
        time: clock.now().getTime() - 5 * intervalMs,
        action: 'enter_long',
        outcome: 'executed',
        reasonCodes: ['signal_long'],
        sizeFraction: 0.25,
        pUp: 0.7,
        pDown: 0.1,
        threshold: 0.55,
        modelId: null,
        stage: 'paper',
        reviewVerdict: null,
        note: 'Long',
        decision: {
          barTime: open - 5 * intervalMs,
          action: 'enter_long',
          sizeFraction: 0.25,
          stopPct: 0.01,
          reasonCodes: ['signal_long'],
          modelId: null,
          modelAgeHours: null,
          pUp: 0.7,
          pDown: 0.1,
          threshold: 0.55,
          expectedEdge: null,
          dissimilarity: null,
          predictionZ: null,
          contributions: [],
          gates: [],
          snapshotHash: '',
        },
        review: null,
        guard: null,
        orders: [],
        fills: [],
        positionQty: 0,
        price: entryPrice,
      },
    });
    expect(entered.executed?.stopPct).toBe(0.01);
    const runtime = new AgentSessionRuntime(row, {
      db: t.app.db,
      clock,
      logger: t.app.log,
      reviewer: t.app.agentReviewer,
      exchange: market,
      snapshots,
      brackets: async () => ({ source: 'default' }),
      publish: async () => {},
      retrainIfDue: () => {},
      approvalWaiting: async () => {},
      latch: async () => {},
    });
    // The session opens holding the long (its account resumed from what it held, not from the entry's bar)
    const qty = 0.01;
    await runtime.beforeBar(bar, {
      figures: figures({ positionQty: qty, entryPrice, markPrice: bar.close, equity: 1000 }),
    });
    const decided = await agentDecisionRepository.decisionAt(t.app.db, row.id, open);
    expect(decided?.record.action).toBe('exit');
    expect(decided?.record.reasonCodes).toEqual(['stop_hit']);
    expect(decided?.executed?.action).toBe('exit');
    runtime.close();
  });

  it('measures the status’s drawdown from the equity peak, as the bot’s own limit does', async () => {
    const agent = await create({
      name: 'Peak',
      interval: '1m',
      params: { trainBars: 300, horizonBars: 5 },
      riskLimits: { maxDrawdownPercent: 20 },
    });
    const row = await rowOf(agent.id);
    // Running on another instance, which last wrote its figures: up to 1,200 and back to 1,050
    const startedAt = clock.now();
    await t.app.db.query(`UPDATE bots SET state = 'running', started_at = $2 WHERE id = $1`, [
      row.id,
      startedAt,
    ]);
    await botRepository.saveStatus(
      t.app.db,
      row.id,
      startedAt,
      figures({ equity: 1050, peakEquity: 1200, realizedPnl: 50 }) as unknown as Record<string, unknown>,
      clock.now(),
    );
    const s: AgentStatus = (await call('GET', `/api/v1/agents/${agent.id}/agent`)).json().data;
    const drawdown = s.risk.find((l) => l.name === 'drawdown');
    expect(drawdown?.current).toBeCloseTo(12.5, 9);
    expect(drawdown?.limit).toBe(20);
    expect(drawdown?.usedPercent).toBeCloseTo(62.5, 9);
    await t.app.db.query(`UPDATE bots SET state = 'stopped' WHERE id = $1`, [row.id]);
  });
});
