import type {
  AgentApproval,
  AgentDecisionRecord,
  AgentDecisionSummary,
  AgentStatus,
} from '@kestrel/contracts/agents';
import type { Bot } from '@kestrel/contracts/bots';
import { beforeAll, describe, expect, it } from 'vitest';
import { agentApprovalRepository } from '../src/trading/agents/agent-approval-repository';
import { AGENT_APPROVAL_TTL_MS } from '../src/trading/agents/agent-decide';
import { agentDecisionRepository } from '../src/trading/agents/agent-decision-repository';
import { bearer, PASSWORD, SIM_START, signUp, type TestApp } from './helper';
import { inProcessAgentTrainer } from './in-process-trainer';
import { useSimBots, WIDE_OPEN_GATES } from './sim-bots';
import { listenWs, TestSocket, wsUrl } from './socket-helper';

/**
 * The agent runtime end to end on PGlite and the Binance simulator: an agent trains, decides on every closed bar
 * (holds recorded with their reasons), its records read through the API; a kill latches it, and the latch survives a
 * restart; promotions are refused naming their gates; approvals expire; another user's agent is a 404.
 */
describe('agents', () => {
  const { t, simClock, clock, advance, eventually, nextBar, anotherApp } = useSimBots({
    deps: { liveStreamLingerMs: 200, agentTrainer: inProcessAgentTrainer },
    wait: { tries: 400, everyMs: 25 },
  });
  let token: string;
  let other: string;
  /** The instances started by the tests (restarts), in order */
  const extraApps: TestApp[] = [];

  const agentBody = {
    name: 'Agent on BTC',
    strategy: 'ml-agent',
    params: { trainBars: 300, horizonBars: 5, retrainHours: 24, expiryHours: 48 },
    symbol: 'BTCUSDT',
    interval: '1m',
    leverage: 2,
    budget: 1000,
    mode: 'paper',
  };

  beforeAll(async () => {
    token = (await signUp(t)).access_token;
    other = (await signUp(t)).access_token;
  });

  const call = (app: TestApp, method: 'GET' | 'POST', url: string, payload?: object, as = token) =>
    app.request({ method, url, headers: bearer(as), ...(payload ? { payload } : {}) });

  async function status(app: TestApp, id: string): Promise<AgentStatus> {
    const res = await call(app, 'GET', `/api/v1/agents/${id}/agent`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  }

  async function decisions(app: TestApp, id: string): Promise<AgentDecisionSummary[]> {
    const res = await call(app, 'GET', `/api/v1/agents/${id}/decisions?limit=500`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  }

  let agent: Bot;

  it('creates an agent (a bot of kind agent) and answers another user’s, an unknown id and a plain bot with 404', async () => {
    const res = await call(t, 'POST', '/api/v1/agents/', agentBody);
    expect(res.statusCode, res.body).toBe(201);
    agent = res.json().data;
    expect(agent).toMatchObject({ kind: 'agent', strategy: 'ml-agent', state: 'stopped' });
    // The engine's schema filled the agent's defaults
    expect(agent.params).toMatchObject({ trainBars: 300, entryThreshold: 0.55 });

    const s = await status(t, agent.id);
    expect(s).toMatchObject({ stage: 'paper', latch: null, model: null, training: { state: 'idle' } });
    expect(s.promotion?.to).toBe('live_approval');
    expect(s.promotion?.allowed).toBe(false);

    const grid = await call(t, 'POST', '/api/v1/agents/', {
      ...agentBody,
      name: 'Grid',
      strategy: 'grid',
      params: { lower: 49_000, upper: 51_000, gridCount: 10, quantityPerGrid: 0.003 },
    });
    expect(grid.statusCode, grid.body).toBe(201);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const paths: ['GET' | 'POST', string, object?][] = [
      ['GET', '/agent'],
      ['GET', '/decisions'],
      ['GET', '/decisions/1'],
      ['POST', '/train'],
      ['GET', '/evidence'],
      ['GET', '/health'],
      ['POST', '/kill'],
      ['POST', '/latch/reset'],
      ['POST', '/stage', { stage: 'paper' }],
      ['GET', '/approvals'],
      ['POST', '/approvals/1/approve'],
      ['POST', '/approvals/1/reject'],
    ];
    for (const [method, path, body] of paths) {
      const theirs = await call(t, method, `/api/v1/agents/${agent.id}${path}`, body, other);
      const none = await call(t, method, `/api/v1/agents/${unknown}${path}`, body, other);
      const plainBot = await call(t, method, `/api/v1/agents/${grid.json().data.id}${path}`, body);
      expect(theirs.statusCode, `${method} ${path}`).toBe(404);
      expect(theirs.json()).toEqual(none.json());
      expect(plainBot.statusCode, `${method} ${path} of a plain bot`).toBe(404);
    }
    // Kind follows the strategy when it changes: the grid made an agent is one
    const made = await t.request({
      method: 'PATCH',
      url: `/api/v1/agents/${grid.json().data.id}`,
      headers: bearer(token),
      payload: { strategy: 'ml-agent' },
    });
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json().data.kind).toBe('agent');
    expect((await call(t, 'GET', `/api/v1/agents/${grid.json().data.id}/agent`)).statusCode).toBe(200);
    // Malformed ids say what is wrong
    const bad = await call(t, 'GET', `/api/v1/agents/${agent.id}/decisions/abc`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/decisionId must be a decision id/);
    expect((await call(t, 'GET', `/api/v1/agents/${agent.id}/decisions/${'9'.repeat(19)}`)).statusCode).toBe(
      400,
    );
    expect((await call(t, 'GET', `/api/v1/agents/${agent.id}/decisions/${'9'.repeat(18)}`)).statusCode).toBe(
      404,
    );
    const stage = await call(t, 'POST', `/api/v1/agents/${agent.id}/stage`, { stage: 'moon' });
    expect(stage.statusCode).toBe(400);
    expect(stage.json().detail).toMatch(/stage must be one of backtest, paper, live_approval, live_auto/);
    // Nothing of the agent changed through those calls
    expect((await status(t, agent.id)).latch).toBeNull();
  });

  it('trains on the simulator’s history (409 while training), records the trial and refuses a promotion naming its gates', async () => {
    const first = await call(t, 'POST', `/api/v1/agents/${agent.id}/train`);
    expect(first.statusCode, first.body).toBe(202);
    expect(first.json().data.state).toBe('training');
    const again = await call(t, 'POST', `/api/v1/agents/${agent.id}/train`);
    expect(again.statusCode).toBe(409);
    await t.app.agentService.idle();
    const s = await status(t, agent.id);
    expect(s.training).toMatchObject({ state: 'idle', lastError: null });
    expect(s.model).toMatchObject({ rows: expect.any(Number), expiryHours: 48, stale: false });
    expect(s.model?.featureIds.length).toBeGreaterThan(20);
    expect(s.model?.trainedAt).toBe(Math.floor(SIM_START / 60_000) * 60_000);

    const evidence = (await call(t, 'GET', `/api/v1/agents/${agent.id}/evidence`)).json().data;
    expect(evidence.trials).toBe(1);
    // A day of 1m history holds no walk-forward folds of a 24 h retrain period: no report, and why
    expect(evidence.report).toBeNull();
    expect(evidence.reportError).toMatch(/^Evidence not computed: /);
    // …in words a trader can act on: what the exchange has, what the settings need, what to change
    expect(evidence.reportError).toMatch(
      /^Evidence not computed: the exchange has \d+ closed BTCUSDT 1m bars \(1 day\); walk-forward evidence needs 3249 \(2 days\): the 300-bar training window, 69 bars for features and labels and 2880 out of sample\. To get evidence, lower Retrain hours/,
    );

    const promote = await call(t, 'POST', `/api/v1/agents/${agent.id}/stage`, { stage: 'live_auto' });
    expect(promote.statusCode).toBe(409);
    expect(promote.json().detail).toMatch(/^Not promoted to live_auto: .*decisions recorded on paper/);
    expect(promote.json().detail).toMatch(/live mode/);
    // A demotion always passes
    const demote = await call(t, 'POST', `/api/v1/agents/${agent.id}/stage`, { stage: 'backtest' });
    expect(demote.statusCode, demote.body).toBe(200);
    expect((await call(t, 'POST', `/api/v1/agents/${agent.id}/stage`, { stage: 'paper' })).statusCode).toBe(
      200,
    );
  });

  it('refuses to start without a model, starts once trained, and records a training that fails with its reason', async () => {
    const fresh = (await call(t, 'POST', '/api/v1/agents/', { ...agentBody, name: 'Untrained' })).json()
      .data as Bot;
    const refused = await call(t, 'POST', `/api/v1/agents/${fresh.id}/start`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'AGENT_UNTRAINED' });
    expect(refused.json().detail).toMatch(/no trained model yet: train it/);
    expect((await status(t, fresh.id)).bot.state).toBe('stopped');
    expect((await call(t, 'POST', `/api/v1/agents/${fresh.id}/train`)).statusCode).toBe(202);
    await t.app.agentService.idle();
    expect((await status(t, fresh.id)).training).toMatchObject({ state: 'idle', lastError: null });
    expect((await call(t, 'POST', `/api/v1/agents/${fresh.id}/start`)).statusCode).toBe(200);
    expect((await call(t, 'POST', `/api/v1/agents/${fresh.id}/stop`)).statusCode).toBe(200);

    // One day of simulator history is one daily bar: nothing to learn from, and the agent says so
    const daily = (
      await call(t, 'POST', '/api/v1/agents/', { ...agentBody, name: 'Daily', interval: '1d' })
    ).json().data as Bot;
    expect((await call(t, 'POST', `/api/v1/agents/${daily.id}/train`)).statusCode).toBe(202);
    await t.app.agentService.idle();
    const s = await status(t, daily.id);
    expect(s.training.state).toBe('failed');
    expect(s.training.lastError).toMatch(
      /^Training failed: only \d+ closed bars of BTCUSDT 1d could be read$/,
    );
    expect(s.model).toBeNull();
    // The production trainer: the engine's worker threads, the snapshot (aux columns included) crossing to them
    const workers = await anotherApp();
    const other = (
      await call(workers, 'POST', '/api/v1/agents/', { ...agentBody, name: 'Worker-trained' })
    ).json().data as Bot;
    try {
      expect((await call(workers, 'POST', `/api/v1/agents/${other.id}/train`)).statusCode).toBe(202);
      await workers.app.agentService.idle();
      expect((await status(workers, other.id)).model?.featureIds.length).toBeGreaterThan(20);
      // A server that closes mid-training ends its worker at once and says why
      expect((await call(workers, 'POST', `/api/v1/agents/${other.id}/train`)).statusCode).toBe(202);
    } finally {
      await workers.app.close();
    }
    expect((await status(t, other.id)).training).toMatchObject({
      state: 'failed',
      lastError: 'Training failed: the server stopped during the training',
    });
    // A failed training does not block the next one
    expect((await call(t, 'POST', `/api/v1/agents/${daily.id}/train`)).statusCode).toBe(202);
    await t.app.agentService.idle();
  });

  it('decides on every closed bar in paper mode: one record per bar, holds included with their reasons', async () => {
    const started = await call(t, 'POST', `/api/v1/agents/${agent.id}/start`);
    expect(started.statusCode, started.body).toBe(200);
    await eventually(async () => t.app.liveStreams?.candleStreams.includes('BTCUSDT@1m') === true);
    // It decides at once, on the last bar closed at its start, then on every close
    await eventually(async () => (await decisions(t, agent.id)).length === 1);
    for (let bar = 1; bar <= 3; bar++) {
      await nextBar(async () => (await decisions(t, agent.id)).length === bar + 1);
    }
    const list = await decisions(t, agent.id);
    expect(list.map((d) => d.barTime)).toEqual([...list.map((d) => d.barTime)].sort((a, b) => b - a));
    expect(new Set(list.map((d) => d.barTime)).size).toBe(4);
    // Paged by bar time, newest first
    const page = (
      await call(t, 'GET', `/api/v1/agents/${agent.id}/decisions?before=${list[0]?.barTime}&limit=1`)
    ).json().data as AgentDecisionSummary[];
    expect(page.map((d) => d.id)).toEqual([list[1]?.id]);
    for (const d of list) {
      expect(d.stage).toBe('paper');
      expect(d.modelId).toBe((await status(t, agent.id)).model?.id);
      expect(d.reasonCodes.length).toBeGreaterThan(0);
      if (d.action === 'hold') expect(d.outcome).toBe('hold');
    }
    const record: AgentDecisionRecord = (
      await call(t, 'GET', `/api/v1/agents/${agent.id}/decisions/${list[0]?.id}`)
    ).json().data;
    expect(record.decision.contributions.length).toBeGreaterThan(20);
    // Aux columns the simulator serves are in the snapshot; those it has no history call for are absent, not invented
    const available = (id: string) => record.decision.contributions.find((c) => c.id === id)?.available;
    expect(available('funding')).toBe(true);
    expect(available('btc_ret_1')).toBe(true);
    expect(available('oi_change_1')).toBe(false);
    expect(available('basis')).toBe(false);
    expect(record.decision.gates.length).toBeGreaterThan(0);
    expect(record.price).toBeGreaterThan(0);
    if (record.action === 'hold') expect(record.guard).toBeNull();
    else expect(record.guard?.checks.length).toBe(10);
    // The status's last decision is the newest record
    expect((await status(t, agent.id)).lastDecision?.id).toBe(list[0]?.id);
    const health = await call(t, 'GET', `/api/v1/agents/${agent.id}/health`);
    expect(health.statusCode, health.body).toBe(200);
    expect(health.json().data.featureDrift.length).toBeGreaterThan(20);
  });

  it('kill: stops, demotes and latches; the latch refuses a start and survives a restart until a person resets it', async () => {
    const killed = await call(t, 'POST', `/api/v1/agents/${agent.id}/kill`);
    expect(killed.statusCode, killed.body).toBe(200);
    const s: AgentStatus = killed.json().data;
    expect(s.latch).toMatchObject({ cause: 'kill', reason: 'Killed by you', fromStage: 'paper' });
    expect(s.bot.state).toBe('stopped');
    expect(s.stage).toBe('paper');
    const start = await call(t, 'POST', `/api/v1/agents/${agent.id}/start`);
    expect(start.statusCode).toBe(409);
    expect(start.json().detail).toMatch(/latched \(Killed by you\): reset the latch/);
    // Its paper run against a backtest of the same strategy over the same bars (the drift report)
    const drift = (await call(t, 'GET', `/api/v1/agents/${agent.id}/evidence`)).json().data.paperDrift;
    expect(drift).toMatchObject({ trades: expect.any(Number), paperReturnPct: expect.any(Number) });
    // No decision after the kill: the bot's bars stop with it
    const recorded = (await decisions(t, agent.id)).length;
    await advance(120_000);
    expect((await decisions(t, agent.id)).length).toBe(recorded);

    await t.app.close();
    const restarted = await anotherApp({ agentTrainer: inProcessAgentTrainer });
    extraApps.push(restarted);
    expect(restarted.app.botRunner.runningIds).toEqual([]);
    expect((await status(restarted, agent.id)).latch).toMatchObject({ cause: 'kill' });
    expect((await call(restarted, 'POST', `/api/v1/agents/${agent.id}/start`)).statusCode).toBe(409);
    // A live stage asks the password again (step-up), then its gates answer
    const stepUp = await call(restarted, 'POST', '/api/v1/account/step-up', { password: PASSWORD });
    expect(stepUp.statusCode, stepUp.body).toBe(200);
    const promote = await call(restarted, 'POST', `/api/v1/agents/${agent.id}/stage`, {
      stage: 'live_approval',
    });
    expect(promote.json().detail).toMatch(/Not latched/);

    const reset = await call(restarted, 'POST', `/api/v1/agents/${agent.id}/latch/reset`);
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json().data.latch).toBeNull();
    expect((await call(restarted, 'POST', `/api/v1/agents/${agent.id}/latch/reset`)).statusCode).toBe(409);
    const again = await call(restarted, 'POST', `/api/v1/agents/${agent.id}/start`);
    expect(again.statusCode, again.body).toBe(200);
    expect((await call(restarted, 'POST', `/api/v1/agents/${agent.id}/stop`)).statusCode).toBe(200);
  });

  it('a proposal waiting for approval expires unanswered (recorded); a decided one cannot be decided again', async () => {
    const app = extraApps[0] as TestApp;
    const db = t.database.db;
    const now = clock.now();
    const stored = await agentDecisionRepository.decisionAt(
      db,
      agent.id,
      (await decisions(app, agent.id))[0]?.barTime ?? 0,
    );
    expect(stored).toBeDefined();
    const id = stored?.id ?? '';
    await agentDecisionRepository.setOutcome(db, id, 'queued', 'Waiting for your approval');
    const execution = { action: 'enter_long' as const, sizeFraction: 0.1, stopPct: 0.01 };
    const expiring = await agentApprovalRepository.insertApproval(db, {
      botId: agent.id,
      decisionId: id,
      execution,
      createdAt: now,
      // A short time limit: the access token would run out in a whole AGENT_APPROVAL_TTL_MS
      expiresAt: new Date(now.getTime() + 5_000),
    });
    const rejected = await agentApprovalRepository.insertApproval(db, {
      botId: agent.id,
      decisionId: id,
      execution,
      createdAt: now,
      expiresAt: new Date(now.getTime() + 2 * AGENT_APPROVAL_TTL_MS),
    });
    let list: AgentApproval[] = (await call(app, 'GET', `/api/v1/agents/${agent.id}/approvals`)).json().data;
    expect(list.map((a) => a.state)).toEqual(['pending', 'pending']);
    expect((await status(app, agent.id)).pendingApprovals).toBe(2);

    const reject = await call(app, 'POST', `/api/v1/agents/${agent.id}/approvals/${rejected.id}/reject`);
    expect(reject.statusCode, reject.body).toBe(200);
    expect(reject.json().data).toMatchObject({ state: 'rejected', note: 'Rejected by you' });
    const twice = await call(app, 'POST', `/api/v1/agents/${agent.id}/approvals/${rejected.id}/approve`);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().detail).toBe('This proposal is already rejected');

    simClock.advance(5_000);
    list = (await call(app, 'GET', `/api/v1/agents/${agent.id}/approvals`)).json().data;
    const expired = list.find((a) => a.id === expiring.id);
    expect(expired).toMatchObject({ state: 'expired', note: 'Expired unanswered: nothing was sent' });
    expect(expired?.decidedAt).toBe(expired?.expiresAt);
    const late = await call(app, 'POST', `/api/v1/agents/${agent.id}/approvals/${expiring.id}/approve`);
    expect(late.statusCode).toBe(409);
    const record = (await call(app, 'GET', `/api/v1/agents/${agent.id}/decisions/${id}`)).json().data;
    expect(record.outcome).toBe('expired');

    // Approved while the agent does not run: it is not carried out a time limit later, it fails (nothing sent)
    const approvedLate = await agentApprovalRepository.insertApproval(db, {
      botId: agent.id,
      decisionId: id,
      execution,
      createdAt: clock.now(),
      expiresAt: new Date(clock.now().getTime() + 5_000),
    });
    const ok = await call(app, 'POST', `/api/v1/agents/${agent.id}/approvals/${approvedLate.id}/approve`);
    expect(ok.statusCode, ok.body).toBe(200);
    simClock.advance(10_000);
    list = (await call(app, 'GET', `/api/v1/agents/${agent.id}/approvals`)).json().data;
    expect(list.find((a) => a.id === approvedLate.id)).toMatchObject({
      state: 'failed',
      note: 'Approved, but not carried out before the market moved on: nothing was sent',
    });
  });

  it('trades on paper when the gates let an entry through: guard checklist, orders and fills in the record, pushed live', async () => {
    const app = extraApps[0] as TestApp;
    // Gates wide open and no costs: the model's first lean becomes an entry (this tests the path, not the model)
    const res = await call(app, 'POST', '/api/v1/agents/', {
      ...agentBody,
      name: 'Eager agent',
      params: { ...agentBody.params, ...WIDE_OPEN_GATES },
    });
    expect(res.statusCode, res.body).toBe(201);
    const eager: Bot = res.json().data;
    expect((await call(app, 'POST', `/api/v1/agents/${eager.id}/train`)).statusCode).toBe(202);
    await app.app.agentService.idle();
    // The registry counts configurations, not trainings: the agents above share one, this is the second
    expect((await call(app, 'GET', `/api/v1/agents/${eager.id}/evidence`)).json().data.trials).toBe(2);
    const socket = await TestSocket.open(wsUrl(await listenWs(app), token, 'agent-tab'));
    expect((await call(app, 'POST', `/api/v1/agents/${eager.id}/start`)).statusCode).toBe(200);
    await eventually(async () => app.app.liveStreams?.candleStreams.includes('BTCUSDT@1m') === true);
    // The first decision is the start's (the last bar closed before it), then one per close
    await eventually(async () => (await decisions(app, eager.id)).length === 1);
    let entered = (await decisions(app, eager.id)).find((d) => d.outcome === 'executed');
    for (let bar = 1; bar <= 10 && !entered; bar++) {
      await nextBar(async () => (await decisions(app, eager.id)).length === bar + 1);
      entered = (await decisions(app, eager.id)).find((d) => d.outcome === 'executed');
    }
    expect(entered, 'an entry within 10 bars').toBeDefined();
    const record: AgentDecisionRecord = (
      await call(app, 'GET', `/api/v1/agents/${eager.id}/decisions/${entered?.id}`)
    ).json().data;
    expect(record.guard?.passed).toBe(true);
    expect(record.guard?.checks.map((c) => c.check)).toContain('price_vs_mark');
    expect(record.orders.length).toBeGreaterThan(0);
    // Every record goes live to the owner's socket as it is written
    const pushed = await socket.next(
      (f) =>
        f.method === 'notifications/bot' &&
        f.params?.type === 'agent_decision' &&
        (f.params?.decision as { id?: string } | undefined)?.id === entered?.id,
    );
    expect(pushed.params).toMatchObject({ botId: eager.id, decision: { outcome: 'executed' } });
    await socket.close();
    // The market order fills on paper at the next price (the start's own step at the start price): the fill joins
    // the record of the decision that sent it
    await nextBar(async () => {
      const r = (await call(app, 'GET', `/api/v1/agents/${eager.id}/decisions/${entered?.id}`)).json().data;
      return r.fills.length > 0;
    });
    // Its fills moved its account: a position, or the PnL of one a later decision closed (paper fills on prices)
    const s = (await call(app, 'GET', `/api/v1/agents/${eager.id}/status`)).json().data;
    expect(s.positionQty !== 0 || s.realizedPnl !== 0).toBe(true);

    // A restart resumes it on paper: its account rebuilt from the records' executions, no bar decided twice
    const before = (await call(app, 'GET', `/api/v1/agents/${eager.id}/status`)).json().data;
    const decided = (await decisions(app, eager.id)).length;
    await app.app.close();
    const resumed = await anotherApp({ agentTrainer: inProcessAgentTrainer });
    extraApps.push(resumed);
    expect(resumed.app.botRunner.runningIds).toEqual([eager.id]);
    const after = (await call(resumed, 'GET', `/api/v1/agents/${eager.id}/status`)).json().data;
    for (const k of ['positionQty', 'realizedPnl', 'unrealizedPnl', 'entryPrice'] as const) {
      expect(after[k], k).toBeCloseTo(before[k], 9);
    }
    expect((await decisions(resumed, eager.id)).length).toBe(decided);
    expect((await call(resumed, 'POST', `/api/v1/agents/${eager.id}/kill`)).json().data.latch.cause).toBe(
      'kill',
    );
  });
});
