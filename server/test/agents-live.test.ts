import type {
  AgentApproval,
  AgentDecisionRecord,
  AgentDecisionSummary,
  AgentStatus,
} from '@kestrel/contracts/agents';
import type { Bot } from '@kestrel/contracts/bots';
import { describe, expect, it } from 'vitest';
import { agentRepository } from '../src/trading/agents/agent-repository';
import { orderIntentRepository } from '../src/trading/orders/order-intent-repository';
import { bearer, type TestApp } from './helper';
import { inProcessAgentTrainer } from './in-process-trainer';
import { useConnectedUser, useSimBots, WIDE_OPEN_GATES } from './sim-bots';

/** Gates wide open and no costs: the model's first lean becomes an entry (these tests are about the path) */
const eagerParams = { trainBars: 300, horizonBars: 5, retrainHours: 1, ...WIDE_OPEN_GATES };

/**
 * A live agent on the simulator: in stage live_approval an entry waits for the owner's click, is carried out at the
 * next close through the order manager (the simulator's own record is the judge); a kill cancels, closes the
 * position reduce-only on the exchange, demotes the bot to paper and latches it. And on paper: a breached limit
 * latches the agent like a kill.
 */
describe('live agents', () => {
  const liveDeps = { orderTimings: { deadmanCountdownMs: 600_000 }, agentTrainer: inProcessAgentTrainer };
  const { t, clock, eventually, nextBar, ...suite } = useSimBots({
    deps: { liveStreamLingerMs: 200, ...liveDeps },
    wait: { tries: 400, everyMs: 25 },
  });
  const user = useConnectedUser(t);
  /** The app the calls go to (a restart replaces it) */
  let app: TestApp = t;

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    app.request({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });
  const status = async (id: string): Promise<AgentStatus> =>
    (await call('GET', `/api/v1/agents/${id}/agent`)).json().data;
  const decisions = async (id: string): Promise<AgentDecisionSummary[]> =>
    (await call('GET', `/api/v1/agents/${id}/decisions?limit=500`)).json().data;
  const account = () => suite.account(user.keys);
  const simOrders = () => [...account().orders.values()];
  /** The conditional orders (the agent's stop) the simulator holds */
  const simStops = () => [...account().algoOrders.values()].filter((o) => o.clientAlgoId.startsWith('kb-'));
  const simPosition = () =>
    [...account().positions.values()].find((p) => p.symbol === 'BTCUSDT')?.amt.toNumber() ?? 0;

  async function trainedAgent(body: Record<string, unknown>): Promise<Bot> {
    const res = await call('POST', '/api/v1/agents/', {
      name: 'Agent',
      strategy: 'ml-agent',
      symbol: 'BTCUSDT',
      interval: '1m',
      leverage: 2,
      budget: 1000,
      params: eagerParams,
      ...body,
    });
    expect(res.statusCode, res.body).toBe(201);
    const bot: Bot = res.json().data;
    expect((await call('POST', `/api/v1/agents/${bot.id}/train`)).statusCode).toBe(202);
    await app.app.agentService.idle();
    expect((await status(bot.id)).model).not.toBeNull();
    // An hourly retrain period leaves room in a day of history for walk-forward folds: the evidence is computed
    const evidence = (await call('GET', `/api/v1/agents/${bot.id}/evidence`)).json().data;
    expect(evidence.reportError).toBeNull();
    expect(evidence.report.folds.length).toBeGreaterThanOrEqual(2);
    expect(evidence.report.gates.map((g: { id: string }) => g.id)).toEqual(
      expect.arrayContaining(['dsr', 'pbo', 'random_entry', 'retention']),
    );
    expect(evidence.report.oosEquity.length).toBeGreaterThan(0);
    expect(evidence.trials).toBeGreaterThanOrEqual(1);
    return bot;
  }

  it('live_approval: an entry waits for the click, then goes to the exchange at the next close; a kill closes it and latches', async () => {
    const agent = await trainedAgent({ name: 'Live agent', mode: 'live' });
    // The promotion gates (evidence, a paper record) are tested on their own: here the stage is set directly
    await agentRepository.state(t.database.db, agent.id, clock.now());
    await agentRepository.setStage(t.database.db, agent.id, 'live_approval', clock.now());
    expect((await call('POST', `/api/v1/agents/${agent.id}/start`)).statusCode).toBe(200);

    // It decides at its start (the last bar closed before it), then at every close
    await eventually(async () => (await decisions(agent.id)).length === 1);
    let queued = (await decisions(agent.id)).find((d) => d.outcome === 'queued');
    for (let bar = 1; bar <= 10 && !queued; bar++) {
      await nextBar(async () => (await decisions(agent.id)).length === bar + 1);
      queued = (await decisions(agent.id)).find((d) => d.outcome === 'queued');
    }
    expect(queued, 'a proposal within 10 bars').toBeDefined();
    // Nothing reached the exchange without the click
    expect(simOrders().filter((o) => o.clientOrderId.startsWith('kb-'))).toEqual([]);
    const approvals: AgentApproval[] = (await call('GET', `/api/v1/agents/${agent.id}/approvals`)).json()
      .data;
    expect(approvals).toHaveLength(1);
    expect(approvals[0]).toMatchObject({ state: 'pending', decisionId: queued?.id });
    // The owner is told it waits, in the bell's own kind (and any webhook or chat that chose it)
    const notices = (await call('GET', '/api/v1/notifications')).json().data.items as {
      event: string;
      title: string;
      message: string;
    }[];
    const waiting = notices.filter((n) => n.event === 'agent_approval_waiting');
    expect(waiting).toHaveLength(1);
    expect(waiting[0]?.title).toMatch(/^Agent “.+” waits for your approval$/);
    expect(waiting[0]?.message).toMatch(
      /^(Long|Short) [\d.]+ at about [\d.]+.* on BTCUSDT: approve or reject it on its page before \d\d:\d\d UTC, or it lapses$/,
    );

    // The next bar does not ask again while the first proposal waits
    await nextBar(async () => (await decisions(agent.id))[0]?.id !== queued?.id);
    expect((await call('GET', `/api/v1/agents/${agent.id}/approvals`)).json().data).toHaveLength(1);

    const approved = await call('POST', `/api/v1/agents/${agent.id}/approvals/${approvals[0]?.id}/approve`);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().data.state).toBe('approved');
    await nextBar(() => simOrders().some((o) => o.clientOrderId.startsWith('kb-')));
    const carriedRecord = async (): Promise<AgentDecisionRecord | undefined> => {
      const carried = (await decisions(agent.id)).find(
        (d) => d.outcome === 'approved' && d.id !== queued?.id,
      );
      return carried && (await call('GET', `/api/v1/agents/${agent.id}/decisions/${carried.id}`)).json().data;
    };
    // The record gets its orders once the bar's orders are sent
    await eventually(
      async () => (await carriedRecord())?.orders.some((o) => o.clientOrderId.startsWith('kb-')) === true,
    );
    const record = await carriedRecord();
    expect(record?.guard?.passed).toBe(true);
    expect(record?.note).toMatch(/^Approved by you: (Long|Short) /);
    // The order manager's record of the entry is an agent's: the agent rules' verdict, then the bot limits', then
    // the account limits' it judged itself
    const entryIds = (record?.orders ?? []).map((o) => o.clientOrderId).filter((id) => id.startsWith('kb-'));
    const [entry] = await orderIntentRepository.ofBot(t.database.db, agent.id, entryIds);
    expect(entry?.preTrade).toEqual({
      origin: 'agent',
      verdicts: [
        { check: 'agent_rules', ok: true },
        { check: 'bot_limits', ok: true },
        { check: 'account_limits', ok: true },
      ],
    });
    await eventually(() => simPosition() !== 0);
    // The entry's stop rests on the exchange as a reduce-only conditional order
    await eventually(() => simStops().filter((o) => o.status === 'NEW' && o.reduceOnly).length === 1);

    // A restart resumes it: the bars since its start replayed from their records, every order asked for again under
    // the same intent and answered as stored — the exchange's record holds each order once
    const ordersBefore = simOrders().length;
    const decided = (await decisions(agent.id)).length;
    await t.app.close();
    app = await suite.anotherApp(liveDeps);
    expect(app.app.botRunner.runningIds).toEqual([agent.id]);
    expect(simOrders().length).toBe(ordersBefore);
    expect((await decisions(agent.id)).length).toBe(decided);
    // Its position is its own fills as the exchange reports them (re-read at the next close, as for every live bot)
    await nextBar(async () => Math.abs((await status(agent.id)).positionQty - simPosition()) < 1e-9);
    expect(simOrders().filter((o) => o.clientOrderId.startsWith('kb-')).length).toBeGreaterThanOrEqual(1);

    const killed = await call('POST', `/api/v1/agents/${agent.id}/kill`);
    expect(killed.statusCode, killed.body).toBe(200);
    const s: AgentStatus = killed.json().data;
    expect(s.latch).toMatchObject({ cause: 'kill', fromStage: 'live_approval' });
    expect(s.stage).toBe('paper');
    expect(s.bot).toMatchObject({ state: 'stopped', mode: 'paper' });
    // Canceled (the stop order) and closed reduce-only on the exchange
    await eventually(() => simPosition() === 0);
    expect(simOrders().filter((o) => o.status === 'NEW')).toEqual([]);
    expect(simStops().filter((o) => o.status === 'NEW')).toEqual([]);
    const close = simOrders().find((o) => o.reduceOnly && o.type === 'MARKET');
    expect(close?.status).toBe('FILLED');
    const [closeIntent] = await orderIntentRepository.ofBot(t.database.db, agent.id, [
      close?.clientOrderId ?? '',
    ]);
    expect(closeIntent?.preTrade?.origin).toBe('agent');
    // A second kill asks for the same close intent: nothing is sent twice
    const before = simOrders().length;
    expect((await call('POST', `/api/v1/agents/${agent.id}/kill`)).statusCode).toBe(200);
    expect(simOrders().length).toBe(before);
  });

  it('a limit breached on paper latches the agent (risk_breach), stops it and keeps it from starting', async () => {
    // The paper broker charges its own taker fee: the first fill puts the day below a 0.01 USDT loss limit
    const agent = await trainedAgent({
      name: 'Tight agent',
      mode: 'paper',
      riskLimits: { dailyLossLimit: 0.01 },
    });
    expect((await call('POST', `/api/v1/agents/${agent.id}/start`)).statusCode).toBe(200);
    for (let bar = 1; bar <= 12 && (await status(agent.id)).latch === null; bar++) {
      await nextBar(
        async () => (await decisions(agent.id)).length >= bar || (await status(agent.id)).latch !== null,
      );
    }
    await eventually(async () => (await status(agent.id)).bot.state === 'error');
    const s = await status(agent.id);
    expect(s.latch).toMatchObject({ cause: 'risk_breach' });
    expect(s.latch?.reason).toMatch(/^Daily loss limit reached/);
    expect(s.bot.stopReason).toMatch(/^Daily loss limit reached/);
    const start = await call('POST', `/api/v1/agents/${agent.id}/start`);
    expect(start.statusCode).toBe(409);
    expect(start.json().code).toBe('AGENT_LATCHED');
  });

  it('the account’s kill switch latches every agent that was trading, like a kill', async () => {
    const agent = await trainedAgent({ name: 'Switched agent', mode: 'paper' });
    expect((await call('POST', `/api/v1/agents/${agent.id}/start`)).statusCode).toBe(200);
    const kill = await call('POST', '/api/v1/risk/kill-switch');
    expect(kill.statusCode, kill.body).toBe(200);
    expect(kill.json().data.botsStopped).toBeGreaterThanOrEqual(1);
    const s = await status(agent.id);
    expect(s.latch).toMatchObject({ cause: 'kill', reason: 'Stopped by the kill switch' });
    expect(s.bot.state).toBe('stopped');
    expect((await call('POST', `/api/v1/agents/${agent.id}/start`)).statusCode).toBe(409);
  });
});
