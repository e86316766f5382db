import {
  type Bot,
  type BotEvent,
  BotPerformanceResponseSchema,
  type BotStatus,
} from '@kestrel/contracts/bots';
import { beforeAll, describe, expect, it } from 'vitest';
import { BOT_LEASE_MS } from '../src/trading/bots/bot-runner';
import { bearer, signUp, type TestApp } from './helper';
import { paperGridBot, useSimBots } from './sim-bots';
import { listenWs, TestSocket, wsUrl } from './socket-helper';

/**
 * The bot runtime end to end on PGlite and the Binance simulator: settings validated (field and rule named), a
 * paper grid bot trading the simulator's closed candles, its figures and log, risk stops, the kill switch, a
 * restart that resumes it, and two instances on one database of which exactly one runs it.
 */
describe('bots', () => {
  const { t, simClock, advance, eventually, nextBar, anotherApp } = useSimBots({
    deps: { liveStreamLingerMs: 200 },
    price: '50000',
    wait: { tries: 200, everyMs: 20 },
  });
  let token: string;
  let other: string;
  /** The instances started by the tests (a restart, a second server), in order */
  const extraApps: TestApp[] = [];

  const grid = paperGridBot('Grid around 50k');

  beforeAll(async () => {
    token = (await signUp(t)).access_token;
    other = (await signUp(t)).access_token;
  });

  const call = (
    app: TestApp,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
    as = token,
  ) => app.request({ method, url, headers: bearer(as), ...(payload ? { payload } : {}) });

  async function create(body: object = grid): Promise<Bot> {
    const res = await call(t, 'POST', '/api/v1/agents/', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data;
  }

  async function status(app: TestApp, id: string): Promise<BotStatus> {
    const res = await call(app, 'GET', `/api/v1/agents/${id}/status`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  }

  async function events(app: TestApp, id: string): Promise<BotEvent[]> {
    return (await call(app, 'GET', `/api/v1/agents/${id}/events?limit=500`)).json().data;
  }

  it('refuses bad settings naming the field and the rule, and answers another user’s bot like an unknown one', async () => {
    const bad = async (body: object, status: number, text: RegExp) => {
      const res = await call(t, 'POST', '/api/v1/agents/', body);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().detail).toMatch(text);
    };
    await bad(
      { ...grid, params: { ...grid.params, lower: 52_000 } },
      400,
      /params: .*lower must be below upper/,
    );
    await bad({ ...grid, params: { gridCount: 1 } }, 400, /params: .*gridCount/);
    await bad({ ...grid, strategy: 'martingale' }, 400, /strategy: unknown strategy "martingale"/);
    await bad({ ...grid, symbol: 'FOOUSDT' }, 400, /symbol: FOOUSDT is not listed on the exchange/);
    await bad({ ...grid, leverage: 0 }, 400, /leverage must be at least 1/);
    await bad({ ...grid, budget: 5 }, 400, /budget must be at least 10 USDT/);
    await bad({ ...grid, riskLimits: { maxDrawdownPercent: 150 } }, 400, /Max drawdown must be between/);
    expect((await call(t, 'GET', '/api/v1/agents/')).json().data).toEqual([]);

    const bot = await create();
    expect(bot).toMatchObject({
      state: 'stopped',
      kind: 'bot',
      strategy: 'grid',
      stopReason: null,
      leverage: 5,
    });
    // The strategy's schema filled its defaults, and the bot's leverage is the strategy's
    expect(bot.params).toMatchObject({ spacing: 'arithmetic', stopOutsidePct: 0, leverage: 5 });
    expect(bot.riskLimits).toEqual({ maxNotional: null, dailyLossLimit: null, maxDrawdownPercent: null });

    const patched = await call(t, 'PATCH', `/api/v1/agents/${bot.id}`, {
      name: 'Renamed',
      riskLimits: { maxNotional: 500 },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().data).toMatchObject({
      name: 'Renamed',
      riskLimits: { maxNotional: 500, dailyLossLimit: null },
    });
    const badPatch = await call(t, 'PATCH', `/api/v1/agents/${bot.id}`, { params: { lower: 60_000 } });
    expect(badPatch.statusCode).toBe(400);
    expect(badPatch.json().detail).toMatch(/params: .*lower must be below upper/);

    const clone = await call(t, 'POST', `/api/v1/agents/${bot.id}/clone`, {});
    expect(clone.statusCode, clone.body).toBe(201);
    expect(clone.json().data).toMatchObject({
      name: 'Renamed (copy)',
      state: 'stopped',
      riskLimits: { maxNotional: 500 },
    });
    expect((await call(t, 'GET', '/api/v1/agents/')).json().data).toHaveLength(2);

    // Another user: every call on the bot answers exactly as for an id that does not exist
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const [method, path, body] of [
      ['GET', '', undefined],
      ['GET', '/status', undefined],
      ['GET', '/events', undefined],
      ['PATCH', '', { name: 'mine' }],
      ['POST', '/start', undefined],
      ['POST', '/stop', undefined],
      ['POST', '/clone', {}],
      ['DELETE', '', undefined],
    ] as const) {
      const theirs = await call(t, method, `/api/v1/agents/${bot.id}${path}`, body, other);
      const none = await call(t, method, `/api/v1/agents/${unknown}${path}`, body, other);
      expect(theirs.statusCode, `${method} ${path}`).toBe(404);
      expect(theirs.json()).toEqual(none.json());
    }
    expect((await call(t, 'GET', '/api/v1/agents/', undefined, other)).json().data).toEqual([]);

    expect((await call(t, 'DELETE', `/api/v1/agents/${clone.json().data.id}`)).statusCode).toBe(200);
    expect((await call(t, 'DELETE', `/api/v1/agents/${bot.id}`)).statusCode).toBe(200);
    expect((await call(t, 'GET', `/api/v1/agents/${bot.id}`)).statusCode).toBe(404);
  });

  let gridBot: Bot;

  it('runs a paper grid bot on the simulator’s closed candles: orders, fills and PnL in its status and log', async () => {
    gridBot = await create();
    const id = gridBot.id;
    const started = await call(t, 'POST', `/api/v1/agents/${id}/start`);
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().data).toMatchObject({ state: 'running', startedAt: simClock.now() });
    expect((await call(t, 'POST', `/api/v1/agents/${id}/start`)).statusCode).toBe(409);
    expect((await call(t, 'DELETE', `/api/v1/agents/${id}`)).json().detail).toMatch(
      /stop it before you delete it/,
    );
    // One upstream kline stream for the pair, shared with any socket that watches it
    await eventually(async () => t.app.liveStreams?.candleStreams.includes('BTCUSDT@1m') === true);

    // The bar open at the start closes: the grid places its 10 orders around 50,000 (the level at the price stays empty)
    await nextBar(async () => (await status(t, id)).openOrders.length === 10);
    let s = await status(t, id);
    expect(s.positionQty).toBe(0);
    expect(s.openOrders.filter((o) => o.side === 'BUY').map((o) => Number(o.price))).toEqual([
      49_000, 49_200, 49_400, 49_600, 49_800,
    ]);

    // The price dips through two buy levels during the next bar: both fill at their price when it closes
    t.sim.exchange.setPrice('BTCUSDT', { price: '49500' });
    await nextBar(async () => (await status(t, id)).positionQty !== 0);
    s = await status(t, id);
    expect(s.positionQty).toBeCloseTo(0.006, 9);
    expect(s.entryPrice).toBeCloseTo(49_700, 6);
    expect(s.markPrice).toBe(49_500);
    expect(s.unrealizedPnl).toBeCloseTo(0.006 * (49_500 - 49_700), 6);
    // Maker fees on 2 × 0.003 BTC at 49,800 and 49,600: the only realized PnL so far
    const fees = 0.0002 * 0.003 * (49_800 + 49_600);
    expect(s.realizedPnl).toBeCloseTo(-fees, 9);

    // Back up: the sells the grid placed one level above each filled buy take the profit
    t.sim.exchange.setPrice('BTCUSDT', { price: '50100' });
    await nextBar(async () => (await status(t, id)).realizedPnl > 0);
    s = await status(t, id);
    expect(s.positionQty).toBeCloseTo(0, 9);
    expect(s.realizedPnl).toBeGreaterThan(0.003 * 200 * 2 - 4 * fees);
    expect(s.uptimeMs).toBeGreaterThan(0);

    const log = await events(t, id);
    const kinds = log.map((e) => e.kind);
    expect(kinds.filter((k) => k === 'order_filled').length).toBeGreaterThanOrEqual(4);
    expect(kinds).toContain('order_sent');
    expect(kinds).toContain('signal');
    expect(kinds.at(-1)).toBe('created');
    expect(kinds.at(-2)).toBe('started');
    const fill = log.find((e) => e.kind === 'order_filled');
    expect(fill?.message).toMatch(/^Filled (buy|sell) 0.003 at \d+/);

    // Its own story: the candles since its first fill, every fill of its log on them, and a PnL curve that ends
    // where its status stands (flat: all of it realized)
    const story = await call(t, 'GET', `/api/v1/agents/${id}/performance`);
    expect(story.statusCode, story.body).toBe(200);
    const perf = BotPerformanceResponseSchema.parse(story.json()).data;
    expect(perf).toMatchObject({ symbol: gridBot.symbol, interval: '1m', earlierFills: 0 });
    expect(perf.candles.length).toBeGreaterThanOrEqual(2);
    expect(perf.fills).toHaveLength(kinds.filter((k) => k === 'order_filled').length);
    expect(perf.fills.map((f) => f.side).slice(0, 2)).toEqual(['BUY', 'BUY']);
    expect(perf.fills.every((f) => f.time >= perf.from)).toBe(true);
    expect(perf.curve.map((p) => p.time)).toEqual([...perf.curve.map((p) => p.time)].sort((a, b) => a - b));
    // While it held 0.006 BTC bought at 49,700 average, a close at 49,500 showed the loss unrealized
    expect(Math.min(...perf.curve.map((p) => p.unrealized))).toBeLessThan(0);
    const last = perf.curve.at(-1);
    expect(last?.unrealized).toBeCloseTo(0, 9);
    expect(last?.total).toBeCloseTo(s.realizedPnl, 6);
    expect((await call(t, 'GET', `/api/v1/agents/${crypto.randomUUID()}/performance`)).statusCode).toBe(404);

    const summary = (await call(t, 'GET', '/api/v1/dashboard/bots')).json().data;
    expect(summary).toMatchObject({ total: 1, running: 1, paper: 1, live: 0 });
    expect(summary.byState.running).toBe(1);
    expect(summary.realizedPnl).toBeCloseTo(s.realizedPnl, 9);
    // The dashboard lists the bot with its own figures, the same as its status
    expect(summary.bots).toEqual([
      expect.objectContaining({ id, mode: 'paper', state: 'running', symbol: gridBot.symbol }),
    ]);
    expect(summary.bots[0].realizedPnl).toBeCloseTo(s.realizedPnl, 9);
    expect(summary.bots[0].todayPnl).toBeCloseTo(summary.todayPnl, 9);
  });

  it('resumes the running bot after a restart, its paper account rebuilt exactly from the bars since its start', async () => {
    const id = gridBot.id;
    const before = await status(t, id);
    const filledBefore = (await events(t, id)).filter((e) => e.kind === 'order_filled').length;
    await t.app.close();
    const restarted = await anotherApp();
    extraApps.push(restarted);
    expect(restarted.app.botRunner.runningIds).toEqual([id]);
    const after = await status(restarted, id);
    expect(after.bot.state).toBe('running');
    for (const k of ['positionQty', 'realizedPnl', 'unrealizedPnl', 'entryPrice'] as const) {
      expect(after[k]).toEqual(before[k]);
    }
    expect(after.openOrders.map((o) => [o.side, o.price])).toEqual(
      before.openOrders.map((o) => [o.side, o.price]),
    );
    const log = await events(restarted, id);
    expect(log[0]).toMatchObject({ kind: 'resumed' });
    // It replayed every bar since its start, and logged none of them twice
    expect(log[0]?.data.replayedBars).toBeGreaterThanOrEqual(3);
    expect(log.filter((e) => e.kind === 'order_filled')).toHaveLength(filledBefore);
    expect(log.filter((e) => e.kind === 'started')).toHaveLength(1);
    const fills = log
      .filter((e) => e.kind === 'order_filled')
      .map((e) => `${e.data.barTime}:${e.data.orderId}`);
    expect(new Set(fills).size).toBe(fills.length);

    // Stop: orders canceled, the session's PnL kept as realized. Read at the moment the stop's line (with the
    // session's PnL) is in the log while the bot is still `stopping`, status and summary count the session once
    const botLog = restarted.app.botService.log;
    const record = botLog.record.bind(botLog);
    let midStop: { status: BotStatus; summaryRealized: number } | undefined;
    botLog.record = async (bot, kind, message, data) => {
      const event = await record(bot, kind, message, data);
      if (bot.id === id && kind === 'stopped') {
        midStop = {
          status: await status(restarted, id),
          summaryRealized: (await call(restarted, 'GET', '/api/v1/dashboard/bots')).json().data.bots[0]
            .realizedPnl,
        };
      }
      return event;
    };
    const stopped = await call(restarted, 'POST', `/api/v1/agents/${id}/stop`);
    botLog.record = record;
    expect(midStop?.status.bot.state).toBe('stopping');
    expect(midStop?.status.realizedPnl).toBeCloseTo(before.realizedPnl, 6);
    expect(midStop?.summaryRealized).toBeCloseTo(before.realizedPnl, 6);
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.json().data).toMatchObject({ state: 'stopped', stopReason: 'Stopped by you' });
    const final = await status(restarted, id);
    expect(final.openOrders).toEqual([]);
    expect(final.uptimeMs).toBeNull();
    expect(final.realizedPnl).toBeCloseTo(before.realizedPnl + before.unrealizedPnl, 6);
    expect((await events(restarted, id))[0]?.message).toMatch(/^Stopped by you \(\d+ orders canceled\)$/);
    expect(restarted.app.botRunner.runningIds).toEqual([]);
    expect((await call(restarted, 'POST', `/api/v1/agents/${id}/stop`)).statusCode).toBe(409);
  });

  it('runs a bot on exactly one of two instances, and the other takes it over within 30 s of the first dying', async () => {
    const a = extraApps[0] as TestApp;
    const b = await anotherApp();
    extraApps.push(b);
    const bot = (await call(a, 'POST', '/api/v1/agents/', { ...grid, name: 'Shared' })).json().data as Bot;
    expect((await call(a, 'POST', `/api/v1/agents/${bot.id}/start`)).statusCode).toBe(200);
    await b.app.botRunner.tick();
    expect(a.app.botRunner.runningIds).toEqual([bot.id]);
    expect(b.app.botRunner.runningIds).toEqual([]);

    // A goes silent (no lease round); before its lease ends B leaves the bot alone, after it B takes it over
    await advance(BOT_LEASE_MS - 5000);
    await b.app.botRunner.tick();
    expect(b.app.botRunner.runningIds).toEqual([]);
    await advance(6000);
    await b.app.botRunner.tick();
    expect(b.app.botRunner.runningIds).toEqual([bot.id]);
    expect((await events(b, bot.id))[0]).toMatchObject({ kind: 'resumed' });
    // A wakes up: its lease is gone, so it stops its copy; only B runs the bot
    await a.app.botRunner.tick();
    expect(a.app.botRunner.runningIds).toEqual([]);
    expect(b.app.botRunner.runningIds).toEqual([bot.id]);

    // Stopped through A while B runs it: `stopping` until B, hearing it on the database channel, has canceled its
    // orders and recorded the stop; then `stopped`
    const stop = await call(a, 'POST', `/api/v1/agents/${bot.id}/stop`);
    expect(stop.json().data).toMatchObject({ state: 'stopping', stopReason: 'Stopped by you' });
    await eventually(async () => b.app.botRunner.runningIds.length === 0);
    await eventually(async () => (await status(a, bot.id)).bot.state === 'stopped');
    await eventually(async () => (await events(a, bot.id))[0]?.kind === 'stopped');
    expect((await events(a, bot.id)).filter((e) => e.kind === 'stopped')).toHaveLength(1);
    // A graceful shutdown hands its bots back at once: A takes this one on its next round
    const second = (await call(b, 'POST', '/api/v1/agents/', { ...grid, name: 'Second' })).json().data as Bot;
    expect((await call(b, 'POST', `/api/v1/agents/${second.id}/start`)).statusCode).toBe(200);
    expect(b.app.botRunner.runningIds).toEqual([second.id]);
    await b.app.close();
    await a.app.botRunner.tick();
    expect(a.app.botRunner.runningIds).toEqual([second.id]);
    expect((await call(a, 'POST', `/api/v1/agents/${second.id}/stop`)).statusCode).toBe(200);
  });

  it('stops a bot that breaks its own limit before the order goes out, and the kill switch stops every bot', async () => {
    const a = extraApps[0] as TestApp;
    // Each grid order is 0.003 BTC ≈ 150 USDT: a 50 USDT cap refuses the first one
    const capped = (
      await call(a, 'POST', '/api/v1/agents/', { ...grid, name: 'Capped', riskLimits: { maxNotional: 50 } })
    ).json().data as Bot;
    expect((await call(a, 'POST', `/api/v1/agents/${capped.id}/start`)).statusCode).toBe(200);
    await nextBar(async () => (await status(a, capped.id)).bot.state === 'error');
    const s = await status(a, capped.id);
    expect(s.bot.stopReason).toMatch(
      /^Max notional exceeded: the order would make the position \d+\.\d\d USDT, over 50$/,
    );
    expect(s.openOrders).toEqual([]);
    expect(s.lastEvents[0]).toMatchObject({ kind: 'risk_stop', data: { limit: 'maxNotional', max: 50 } });
    expect(s.lastEvents.some((e) => e.kind === 'order_sent')).toBe(false);

    // The kill switch of /risk stops every running bot of the user first, each with the reason in its log
    const auth = await signUp(a);
    const keys = t.demoKeys();
    const stored = await call(
      a,
      'POST',
      '/api/v1/credentials/binance',
      { api_key: keys.apiKey, secret_key: keys.secretKey },
      auth.access_token,
    );
    expect(stored.statusCode, stored.body).toBe(201);
    const socket = await TestSocket.open(wsUrl(await listenWs(a), auth.access_token, 'bots-tab'));
    try {
      await socket.request('tools/list');
      const mine = [];
      for (const name of ['K1', 'K2']) {
        const bot = (await call(a, 'POST', '/api/v1/agents/', { ...grid, name }, auth.access_token)).json()
          .data as Bot;
        const pushed = socket.next((f) => f.method === 'notifications/bot' && f.params?.type === 'started');
        expect(
          (await call(a, 'POST', `/api/v1/agents/${bot.id}/start`, undefined, auth.access_token)).statusCode,
        ).toBe(200);
        // Every event goes live to the owner's socket too
        expect((await pushed).params).toMatchObject({
          botId: bot.id,
          type: 'started',
          event: { kind: 'started' },
        });
        mine.push(bot.id);
      }
      const kill = await call(a, 'POST', '/api/v1/risk/kill-switch', undefined, auth.access_token);
      expect(kill.statusCode, kill.body).toBe(200);
      expect(kill.json().data.botsStopped).toBe(2);
      for (const id of mine) {
        const st = (await call(a, 'GET', `/api/v1/agents/${id}/status`, undefined, auth.access_token)).json()
          .data as BotStatus;
        expect(st.bot).toMatchObject({ state: 'stopped', stopReason: 'Stopped by the kill switch' });
        expect(st.lastEvents[0]?.kind).toBe('stopped');
      }
      expect(a.app.botRunner.runningIds).toEqual([]);
      const overview = (await call(a, 'GET', '/api/v1/dashboard/bots', undefined, auth.access_token)).json()
        .data;
      expect(overview).toMatchObject({ total: 2, running: 0, byState: { stopped: 2 } });
    } finally {
      await socket.close();
    }
  });

  it('stops a bot whose history the exchange will not give, with the reason, and does not retry', async () => {
    const a = extraApps[0] as TestApp;
    const ema = (
      await call(a, 'POST', '/api/v1/agents/', {
        ...grid,
        name: 'EMA',
        strategy: 'ema-cross',
        interval: '5m',
        params: { fast: 5, slow: 20 },
      })
    ).json().data as Bot;
    // Its 20 bars of 5m warm-up history are not in the cache yet (the grid's chart read 1m bars): the klines call
    // fails once (overloaded)
    t.sim.faults.add({
      kind: 'error',
      method: 'GET',
      path: '/fapi/v1/klines',
      status: 503,
      code: -1008,
      remaining: 1,
    });
    const started = await call(a, 'POST', `/api/v1/agents/${ema.id}/start`);
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().data).toMatchObject({ state: 'error' });
    expect(started.json().data.stopReason).toMatch(/^Could not read BTCUSDT 5m klines from the exchange: .+/);
    expect(a.app.botRunner.runningIds).not.toContain(ema.id);
    const log = await events(a, ema.id);
    expect(log[0]).toMatchObject({ kind: 'error', data: { sessionPnl: 0 } });
    // An errored bot stays stopped until its owner starts it again; then it runs (the exchange answers again)
    await a.app.botRunner.tick();
    expect(a.app.botRunner.runningIds).not.toContain(ema.id);
    const again = await call(a, 'POST', `/api/v1/agents/${ema.id}/start`);
    expect(again.json().data).toMatchObject({ state: 'running', stopReason: null });
    expect((await call(a, 'POST', `/api/v1/agents/${ema.id}/stop`)).statusCode).toBe(200);
  });

  it('a paper DCA bot’s base order fills at the start price at once; its take-profit and safety orders stand open', async () => {
    const a = extraApps[0] as TestApp;
    const dca = (
      await call(a, 'POST', '/api/v1/agents/', {
        ...grid,
        name: 'Paper DCA',
        strategy: 'dca',
        interval: '1h',
        params: { baseOrderSize: 200, safetyOrderCount: 2, takeProfit: 0.01 },
      })
    ).json().data as Bot;
    const hour = simClock.now() - (simClock.now() % 3_600_000);
    expect((await call(a, 'POST', `/api/v1/agents/${dca.id}/start`)).statusCode).toBe(200);
    expect(a.app.botRunner.runningIds).toContain(dca.id);
    // No bar closes (simulated time stands still; the next 1h close is far): the base order filled at the start
    await eventually(async () => (await status(a, dca.id)).positionQty > 0);
    const s = await status(a, dca.id);
    const started = (await events(a, dca.id)).find((e) => e.kind === 'signal');
    const price = started?.data.price as number;
    expect(started?.message).toMatch(/^Started at \d+(\.\d+)? \(the .* bar closed at .*\): 1 order$/);
    // The simulated broker's taker slippage (1 bp, rounded up to the 0.1 tick) above the start price
    expect((s.entryPrice as number) - price).toBeGreaterThan(0);
    expect((s.entryPrice as number) - price).toBeLessThanOrEqual(price * 0.0001 + 0.1 + 1e-9);
    expect(s.positionQty).toBeCloseTo(Math.floor((200 / price) * 1000) / 1000, 9);
    expect(s.openOrders.map((o) => [o.side, o.status]).sort()).toEqual([
      ['BUY', 'NEW'],
      ['BUY', 'NEW'],
      ['SELL', 'NEW'],
    ]);
    const tp = s.openOrders.find((o) => o.side === 'SELL');
    expect(Number(tp?.price)).toBeCloseTo(Math.round((s.entryPrice as number) * 1.01 * 10) / 10, 6);
    expect(simClock.now() - (simClock.now() % 3_600_000)).toBe(hour);

    // Its server restarts inside the same bar: the resumed account stands exactly where it stood (its first step
    // and the start price replayed, the base fill not logged twice)
    await a.app.close();
    const b = await anotherApp();
    extraApps.push(b);
    expect(b.app.botRunner.runningIds).toContain(dca.id);
    const after = await status(b, dca.id);
    for (const k of ['positionQty', 'realizedPnl', 'entryPrice'] as const) expect(after[k]).toEqual(s[k]);
    expect(after.openOrders.map((o) => [o.side, o.price])).toEqual(
      s.openOrders.map((o) => [o.side, o.price]),
    );
    expect((await events(b, dca.id)).filter((e) => e.kind === 'order_filled')).toHaveLength(1);
    expect((await call(b, 'POST', `/api/v1/agents/${dca.id}/stop`)).statusCode).toBe(200);
  });
});
