import type { Bot, BotEvent } from '@kestrel/contracts/bots';
import { intervalToMs } from '@kestrel/engine';
import { beforeAll, describe, expect, it } from 'vitest';
import { KlineCache } from '../src/core/market-data/kline-cache';
import { klineRepository } from '../src/core/market-data/kline-repository';
import { agentDecisionRepository } from '../src/trading/agents/agent-decision-repository';
import { AgentSessionRuntime } from '../src/trading/agents/agent-session';
import { AgentSnapshots } from '../src/trading/agents/agent-snapshot';
import type { BotFault } from '../src/trading/bots/bot-fault';
import { type BotRow, botRepository } from '../src/trading/bots/bot-repository';
import { BotSession, type BotSessionDeps } from '../src/trading/bots/bot-session';
import { engineStrategyHost, type StrategyHost } from '../src/trading/bots/strategy-host';
import { bearer, signUp } from './helper';
import { useSimBots } from './sim-bots';

const EXCHANGE_ENV = 'strategy-host-test';
const MINUTE = intervalToMs('1m');
/** Bars each session trades: the ones between its start and the bar open now */
const TRADED_BARS = 5;

/**
 * The bot session runs the strategy host it is given when it is built, whatever the bot's kind: a grid bot with
 * the engine's strategy, an AI agent with its runtime, through one constructor and one set of session ports (the
 * real app's database, log and the simulator's candles), on the paper account every bot trades on
 */
describe('bot session: the strategy host given at construction', () => {
  const { t, clock } = useSimBots();
  let token: string;

  beforeAll(async () => {
    token = (await signUp(t)).access_token;
  });

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.request({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

  /** A stopped bot of the signed-in user, as the runner would read it, started TRADED_BARS bars ago */
  async function bot(body: Record<string, unknown>): Promise<BotRow> {
    const res = await call('POST', '/api/v1/agents/', {
      symbol: 'BTCUSDT',
      interval: '1m',
      leverage: 2,
      budget: 1000,
      mode: 'paper',
      ...body,
    });
    expect(res.statusCode, res.body).toBe(201);
    const created: Bot = res.json().data;
    const owner = await t.app.db.query<{ user_id: string }>('SELECT user_id FROM bots WHERE id = $1', [
      created.id,
    ]);
    const row = await botRepository.find(t.app.db, owner[0]?.user_id ?? '', created.id);
    if (!row) throw new Error('the bot is gone');
    return { ...row, started_at: new Date(barNow() - TRADED_BARS * MINUTE) };
  }

  const barNow = () => Math.floor(clock.now().getTime() / MINUTE) * MINUTE;

  /** The ports every bot's session gets (the bots plugin's), for a paper bot: no order reaches the exchange */
  function sessionDeps(row: BotRow, faults: BotFault[]): BotSessionDeps {
    const market = t.app.exchangeRouter.marketFor(row.environment);
    const klines = new KlineCache(t.app.db, klineRepository, market);
    const noExchangeOrder = () => Promise.reject(new Error('a paper session asked the order manager'));
    return {
      db: t.app.db,
      clock,
      log: t.app.botService.log,
      logger: t.app.log,
      exchange: market,
      loadBars: (key, span) => klines.load(key, span),
      actedSignals: async () => [],
      brackets: async () => ({ source: 'default' }),
      // No stream: the session trades the bars since its start from the kline cache, then waits
      watchCandles: () => () => {},
      exchangeEnv: EXCHANGE_ENV,
      orders: {
        place: noExchangeOrder,
        cancel: noExchangeOrder,
        reconcile: noExchangeOrder,
        cancelAllFor: noExchangeOrder,
        ofBot: noExchangeOrder,
        recentTrades: noExchangeOrder,
        tradesSince: noExchangeOrder,
        armDeadman: noExchangeOrder,
        disarmDeadman: noExchangeOrder,
        setLeverage: noExchangeOrder,
        tracker: t.app.orderManager.tracker,
      },
      onFault: (fault) => faults.push(fault),
      onFigures: () => {},
      countFee: async () => ({ usdt: 0, words: '', data: {} }),
      followAccount: () => () => {},
      exchangePosition: noExchangeOrder,
    };
  }

  /** The host as given, with what the session asked of it written down */
  function watched(host: StrategyHost, calls: string[]): StrategyHost {
    return {
      type: host.type,
      origin: host.origin,
      verdicts: () => host.verdicts(),
      beforeBar: async (bar, ctx) => {
        calls.push(`before ${bar.openTime}`);
        await host.beforeBar(bar, ctx);
      },
      afterBar: async (bar, outcome, ctx) => {
        calls.push(`after ${bar.openTime}`);
        await host.afterBar(bar, outcome, ctx);
      },
      close: () => {
        calls.push('close');
        host.close();
      },
    };
  }

  const gridAround = (price: number) => ({
    lower: Math.round(price * 0.98),
    upper: Math.round(price * 1.02),
    gridCount: 6,
    quantityPerGrid: 0.003,
    direction: 'neutral',
  });

  const events = async (id: string): Promise<BotEvent[]> =>
    (await call('GET', `/api/v1/agents/${id}/events?limit=200`)).json().data;

  it('runs a grid bot’s engine strategy and an agent’s runtime, each around every traded bar', async () => {
    const from = barNow() - TRADED_BARS * MINUTE;
    const grid = await bot({ name: 'Grid host', strategy: 'grid', params: gridAround(50_000) });
    const bars = await new KlineCache(
      t.app.db,
      klineRepository,
      t.app.exchangeRouter.marketFor(grid.environment),
    ).load({ env: EXCHANGE_ENV, symbol: 'BTCUSDT', interval: '1m' }, { start: from, end: from + MINUTE });
    // Its levels around the market of its first traded bar
    grid.params = { ...grid.params, ...gridAround(bars.close[0] as number) };
    const expectedBars = Array.from({ length: TRADED_BARS }, (_, i) => from + i * MINUTE);
    const aroundEachBar = expectedBars.flatMap((b) => [`before ${b}`, `after ${b}`]);

    const gridFaults: BotFault[] = [];
    const gridCalls: string[] = [];
    const gridHost = engineStrategyHost(grid);
    if (!gridHost) throw new Error('the grid strategy is not built in');
    const gridSession = new BotSession(grid, watched(gridHost, gridCalls), sessionDeps(grid, gridFaults));
    await gridSession.open();
    await gridSession.run();
    expect(gridFaults).toEqual([]);
    expect(gridCalls).toEqual(aroundEachBar);
    // Its orders are the paper account's (the bot's one order port), logged by the session
    expect((await events(grid.id)).some((e) => e.kind === 'order_sent')).toBe(true);
    gridSession.detach();
    expect(gridCalls.at(-1)).toBe('close');

    // An agent through the same constructor and ports: its runtime decides and records every traded bar
    const agent = await bot({
      name: 'Agent host',
      strategy: 'ml-agent',
      params: { trainBars: 300, horizonBars: 5 },
    });
    const market = t.app.exchangeRouter.marketFor(agent.environment);
    const klines = new KlineCache(t.app.db, klineRepository, market);
    const runtime = new AgentSessionRuntime(agent, {
      db: t.app.db,
      clock,
      logger: t.app.log,
      reviewer: t.app.agentReviewer,
      exchange: market,
      snapshots: new AgentSnapshots({
        exchange: market,
        exchangeEnv: EXCHANGE_ENV,
        loadBars: (key, span) => klines.load(key, span),
        logger: t.app.log,
      }),
      brackets: async () => ({ source: 'default' }),
      publish: async () => {},
      retrainIfDue: () => {},
      approvalWaiting: async () => {},
      latch: async () => {},
    });
    const agentFaults: BotFault[] = [];
    const agentCalls: string[] = [];
    const agentSession = new BotSession(agent, watched(runtime, agentCalls), sessionDeps(agent, agentFaults));
    await agentSession.open();
    await agentSession.run();
    expect(agentFaults).toEqual([]);
    expect(agentCalls).toEqual(aroundEachBar);
    const decided = await agentDecisionRepository.decisions(t.app.db, agent.id, undefined, 100);
    expect(decided.map((d) => d.barTime).sort()).toEqual(expectedBars);
    // No model yet: every bar a hold, recorded with why, and nothing sent
    expect(decided.every((d) => d.record.outcome === 'hold' && d.executed === null)).toBe(true);
    expect(agentSession.figures()?.positionQty).toBe(0);
    agentSession.detach();
  });

  it('fails to open, saying why, when nothing here runs the bot’s strategy', async () => {
    const grid = await bot({
      name: 'Orphan',
      strategy: 'grid',
      params: gridAround(50_000),
    });
    const orphan = { ...grid, strategy: 'retired-strategy' };
    expect(engineStrategyHost(orphan)).toBeUndefined();
    const session = new BotSession(orphan, undefined, sessionDeps(orphan, []));
    await expect(session.open()).rejects.toThrow(
      'The strategy "retired-strategy" no longer exists on this server',
    );
  });
});
